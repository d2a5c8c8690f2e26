// The cache's warnings above every tab, each until dismissed: the shared client reports them as
// "cache-warning" events (a store discarded or unreadable, a save refused, the cache shrunk to fit).
import {
  Button,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
} from "@fluentui/react-components";
import { useEffect, useState } from "react";
import { onSharedClientEvent } from "../../host/shared-client";
import { addCacheWarning, type CacheWarning } from "../logic/cache-warnings";

export function CacheWarnings() {
  const [warnings, setWarnings] = useState<readonly CacheWarning[]>([]);
  useEffect(() => onSharedClientEvent((e) => setWarnings((list) => addCacheWarning(list, e))), []);
  if (warnings.length === 0) return null;
  return (
    <>
      {warnings.map((w) => (
        <MessageBar key={w.message} intent="warning" layout="multiline" data-testid="cache-warning">
          <MessageBarBody>
            <MessageBarTitle>Cache</MessageBarTitle>
            {w.message}
            {w.count > 1 ? ` (${w.count} times)` : ""}
          </MessageBarBody>
          <MessageBarActions>
            <Button
              size="small"
              appearance="transparent"
              onClick={() => setWarnings((list) => list.filter((x) => x !== w))}
            >
              Dismiss
            </Button>
          </MessageBarActions>
        </MessageBar>
      ))}
    </>
  );
}
