// A virtualized listbox driven from a search box (the ARIA combobox pattern): the box keeps the focus,
// arrow keys move the active option, Enter chooses it. Only the visible rows are rendered, so ten
// thousand securities scroll as smoothly as ten.
import { useVirtualizer } from "@tanstack/react-virtual";
import { makeStyles, mergeClasses, tokens } from "@fluentui/react-components";
import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from "react";

const useStyles = makeStyles({
  scroller: {
    overflowY: "auto",
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground1,
  },
  option: {
    position: "absolute",
    left: 0,
    width: "100%",
    boxSizing: "border-box",
    padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalS}`,
    borderBottom: `1px solid ${tokens.colorNeutralStroke3}`,
    cursor: "pointer",
    ":hover": { backgroundColor: tokens.colorNeutralBackground1Hover },
  },
  active: {
    backgroundColor: tokens.colorNeutralBackground1Selected,
    outline: `2px solid ${tokens.colorStrokeFocus2}`,
    outlineOffset: "-2px",
  },
});

/** Keyboard and ARIA wiring between a search box and its SearchList. */
export function useListNavigation<T>(listId: string, items: readonly T[], onChoose: (item: T) => void) {
  const [active, setActive] = useState(0);
  useEffect(() => setActive(0), [items]);
  const onKeyDown = (e: KeyboardEvent<HTMLElement>): void => {
    if (e.key === "ArrowDown") setActive((a) => Math.min(items.length - 1, a + 1));
    else if (e.key === "ArrowUp") setActive((a) => Math.max(0, a - 1));
    else if (e.key === "Home" && e.ctrlKey) setActive(0);
    else if (e.key === "End" && e.ctrlKey) setActive(items.length - 1);
    else if (e.key === "Enter" && items[active] !== undefined) onChoose(items[active]);
    else return;
    e.preventDefault();
  };
  const inputProps = {
    role: "combobox",
    "aria-controls": listId,
    "aria-expanded": items.length > 0,
    "aria-autocomplete": "list" as const,
    "aria-activedescendant": items.length > 0 ? `${listId}-${active}` : undefined,
    onKeyDown,
  };
  return { active, setActive, inputProps };
}

export interface SearchListProps<T> {
  readonly id: string;
  readonly label: string;
  readonly items: readonly T[];
  readonly active: number;
  readonly onChoose: (item: T) => void;
  readonly render: (item: T) => ReactNode;
  readonly itemKey: (item: T) => string;
  /** Row height guess; rows are measured once rendered. */
  readonly estimateRowPx: number;
  readonly maxHeightPx: number;
}

export function SearchList<T>(props: SearchListProps<T>) {
  const styles = useStyles();
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: props.items.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => props.estimateRowPx,
    overscan: 6,
    getItemKey: (i) => {
      const item = props.items[i];
      return item === undefined ? i : props.itemKey(item);
    },
  });
  useEffect(() => {
    if (props.items.length > 0) virtualizer.scrollToIndex(props.active, { align: "auto" });
  }, [props.active, props.items.length, virtualizer]);

  const height = Math.min(props.maxHeightPx, Math.max(virtualizer.getTotalSize(), props.estimateRowPx));
  return (
    <div
      ref={scroller}
      className={styles.scroller}
      style={{ height: props.items.length === 0 ? 0 : height, borderWidth: props.items.length === 0 ? 0 : 1 }}
    >
      <div
        role="listbox"
        id={props.id}
        aria-label={props.label}
        style={{ height: virtualizer.getTotalSize(), position: "relative" }}
      >
        {virtualizer.getVirtualItems().map((row) => {
          const item = props.items[row.index];
          if (item === undefined) return null;
          return (
            <div
              key={row.key}
              id={`${props.id}-${row.index}`}
              role="option"
              aria-selected={row.index === props.active}
              aria-posinset={row.index + 1}
              aria-setsize={props.items.length}
              data-index={row.index}
              ref={virtualizer.measureElement}
              className={mergeClasses(styles.option, row.index === props.active && styles.active)}
              style={{ transform: `translateY(${row.start}px)` }}
              onClick={() => props.onChoose(item)}
            >
              {props.render(item)}
            </div>
          );
        })}
      </div>
    </div>
  );
}
