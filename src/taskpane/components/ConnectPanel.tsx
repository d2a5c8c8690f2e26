// "Connect": base URL (with presets) and API key, stored in OfficeRuntime.storage, and a connection test.
import {
  Button,
  Field,
  Input,
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
  Select,
  Spinner,
  makeStyles,
  tokens,
} from "@fluentui/react-components";
import { useEffect, useRef, useState } from "react";
import { DEFAULT_BASE_URL } from "../../api";
import { testConnection, type ConnectionOutcome } from "../logic/connection-test";
import { detectGateway, gatewayPresetLabel } from "../logic/gateway-origin";
import { useServices } from "../services";
import { messageOf } from "../logic/message";

export const BASE_URL_PRESETS = [
  { label: "Production", url: "https://api.newconstructs.com/v1" },
  { label: "Local sandbox (127.0.0.1)", url: "http://127.0.0.1:4010/v1" },
  { label: "Local sandbox (localhost)", url: "http://localhost:4010/v1" },
] as const;

export interface BaseUrlPreset {
  readonly label: string;
  readonly url: string;
}

/** The presets, "This gateway (<origin>/v1)" first when `fdq serve` hosts the pane. */
export function presetsFor(gatewayUrl: string | undefined): readonly BaseUrlPreset[] {
  return gatewayUrl
    ? [{ label: gatewayPresetLabel(gatewayUrl), url: gatewayUrl }, ...BASE_URL_PRESETS]
    : BASE_URL_PRESETS;
}

/** One look per page load: whether the page's own origin is an FDQ gateway (its /healthz). */
let gatewayDetection: Promise<string | undefined> | undefined;
const detectOwnGateway = (): Promise<string | undefined> =>
  (gatewayDetection ??= detectGateway({ origin: globalThis.location?.origin ?? "" }));

const TITLES: Readonly<Record<ConnectionOutcome["kind"], string>> = {
  connected: "Connected",
  "key-refused": "Key refused",
  unreachable: "Service unreachable",
  cors: "Blocked by CORS",
  "not-https": "Not https",
  "service-error": "Service error",
};

const useStyles = makeStyles({
  root: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalM },
  keyRow: { display: "flex", alignItems: "flex-end", gap: tokens.spacingHorizontalS },
  grow: { flexGrow: 1, minWidth: 0 },
  input: { minWidth: 0, width: "100%" },
  actions: { display: "flex", gap: tokens.spacingHorizontalS, flexWrap: "wrap" },
});

export interface ConnectPanelProps {
  /** Called after the settings were saved and applied to the shared client. */
  readonly onSaved: () => void;
}

export function ConnectPanel({ onSaved }: ConnectPanelProps) {
  const styles = useStyles();
  const { api } = useServices();
  const [baseUrl, setBaseUrl] = useState<string>(BASE_URL_PRESETS[0].url);
  const [apiKey, setApiKey] = useState("");
  const [showKey, setShowKey] = useState(false);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState<{ ok: boolean; text: string }>();
  const [outcome, setOutcome] = useState<ConnectionOutcome>();
  const [gatewayUrl, setGatewayUrl] = useState<string>();
  /** Whether the user changed the base URL (then the gateway's default does not replace it). */
  const edited = useRef(false);

  useEffect(() => {
    let live = true;
    void (async () => {
      const s = await api.loadSettings();
      if (!live) return;
      setBaseUrl(s.baseUrl);
      setApiKey(s.apiKey);
      const gateway = await detectOwnGateway();
      if (!live || !gateway) return;
      setGatewayUrl(gateway);
      // A first-time user (nothing saved: no key, the default URL) starts on the gateway that serves the pane.
      if (s.apiKey === "" && s.baseUrl === DEFAULT_BASE_URL && !edited.current) setBaseUrl(gateway);
    })();
    return () => {
      live = false;
    };
  }, [api]);

  const presets = presetsFor(gatewayUrl);
  const preset = presets.find((p) => p.url === baseUrl)?.url ?? "";
  const changeBaseUrl = (url: string): void => {
    edited.current = true;
    setBaseUrl(url);
  };

  const save = async (): Promise<void> => {
    try {
      await api.saveSettings({ baseUrl: baseUrl.trim(), apiKey: apiKey.trim() });
      setSaved({ ok: true, text: "Saved in this computer's add-in storage (never in the workbook)." });
      onSaved();
    } catch (err) {
      setSaved({ ok: false, text: messageOf(err) });
    }
  };

  const test = async (): Promise<void> => {
    setBusy(true);
    setOutcome(undefined);
    try {
      setOutcome(await testConnection({ baseUrl, apiKey: apiKey.trim() }));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className={styles.root} aria-label="Connect">
      <Field label="Service preset">
        <Select value={preset} onChange={(_, d) => d.value && changeBaseUrl(d.value)} data-testid="preset">
          <option value="">Custom URL</option>
          {presets.map((p) => (
            <option key={p.url} value={p.url}>
              {p.label}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Base URL" hint="Includes the version, e.g. https://api.newconstructs.com/v1">
        <Input value={baseUrl} onChange={(_, d) => changeBaseUrl(d.value)} data-testid="base-url" />
      </Field>
      <div className={styles.keyRow}>
        <Field label="API key" className={styles.grow}>
          <Input
            className={styles.input}
            type={showKey ? "text" : "password"}
            value={apiKey}
            autoComplete="off"
            spellCheck={false}
            onChange={(_, d) => setApiKey(d.value)}
            data-testid="api-key"
          />
        </Field>
        <Button
          onClick={() => setShowKey((v) => !v)}
          aria-pressed={showKey}
          aria-label={showKey ? "Hide the key" : "Show the key"}
        >
          {showKey ? "Hide" : "Show"}
        </Button>
      </div>
      <div className={styles.actions}>
        <Button appearance="primary" onClick={save} disabled={apiKey.trim() === ""}>
          Save
        </Button>
        <Button onClick={test} disabled={busy || apiKey.trim() === ""} data-testid="test-connection">
          Test connection
        </Button>
        {busy && <Spinner size="tiny" label="Testing…" />}
      </div>
      {saved && (
        <MessageBar layout="multiline" intent={saved.ok ? "success" : "error"} data-testid="save-result">
          <MessageBarBody>{saved.text}</MessageBarBody>
        </MessageBar>
      )}
      {outcome && (
        <MessageBar
          layout="multiline"
          intent={outcome.kind === "connected" ? "success" : "error"}
          data-testid="connection-result"
          data-kind={outcome.kind}
        >
          <MessageBarBody>
            <MessageBarTitle>{TITLES[outcome.kind]}</MessageBarTitle>
            {outcome.message}
          </MessageBarBody>
        </MessageBar>
      )}
    </section>
  );
}
