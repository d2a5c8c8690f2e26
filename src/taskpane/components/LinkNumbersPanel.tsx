// "Link numbers": fdq retrofit's matching in the pane (logic/link-numbers.ts). The analyst picks the selection or
// the active sheet; "Price it" reads it and shows what finding matches costs (nothing is sent); "Find matches"
// runs the matching through the shared client; each proposal (the model's number, FDQ's and the difference) is
// accepted or rejected, one by one or all at once; "Link accepted" writes the FDQ formulas in place of the
// constants in one batch, and "Undo" puts the constants back with their number formats while the pane is open.
import {
  Button,
  Card,
  Field,
  Radio,
  RadioGroup,
  Spinner,
  Text,
  ToggleButton,
  makeStyles,
  mergeClasses,
  tokens,
} from "@fluentui/react-components";
import { useRef, useState } from "react";
import { CatalogSearchIndex } from "../../catalog/search";
import {
  CONNECT_FIRST,
  differenceText,
  findLinks,
  planLinks,
  priceLine,
  priceLinks,
  type LinkFindings,
  type LinkPlan,
  type LinkProposal,
  type LinkScope,
} from "../logic/link-numbers";
import { messageOf } from "../logic/message";
import type { ReplacedConstant } from "../office/link-numbers";
import { useServices } from "../services";

const useStyles = makeStyles({
  root: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalS },
  actions: { display: "flex", gap: tokens.spacingHorizontalS, flexWrap: "wrap" },
  list: { listStyle: "none", margin: 0, padding: 0, display: "flex", flexDirection: "column", gap: "6px" },
  item: {
    display: "flex",
    flexDirection: "column",
    gap: "2px",
    padding: "4px 6px",
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
  },
  accepted: { border: `1px solid ${tokens.colorPaletteGreenBorder2}` },
  rejected: { color: tokens.colorNeutralForeground3 },
  decision: { fontWeight: tokens.fontWeightRegular },
  formula: {
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase100,
    overflowWrap: "anywhere",
    color: tokens.colorNeutralForeground3,
  },
  notes: { margin: 0, paddingLeft: tokens.spacingHorizontalL, overflowWrap: "anywhere" },
});

type Decision = "accepted" | "rejected";

const keyOf = (p: LinkProposal): string => `${p.sheet}!${p.cell}`;
const shown = (n: number): string => n.toLocaleString("en-US", { maximumFractionDigits: 4 });

let searchIndex: CatalogSearchIndex | undefined;
/** The catalog search fdq retrofit uses (the bundled catalog), built once. */
const index = (): CatalogSearchIndex => (searchIndex ??= CatalogSearchIndex.fromCatalog());

export function LinkNumbersPanel() {
  const styles = useStyles();
  const { workbook, api } = useServices();
  const [scope, setScope] = useState<LinkScope>("sheet");
  const [plan, setPlan] = useState<LinkPlan>();
  const [price, setPrice] = useState<string>();
  const [findings, setFindings] = useState<LinkFindings>();
  const [decisions, setDecisions] = useState<ReadonlyMap<string, Decision>>(new Map());
  const [busy, setBusy] = useState<string>();
  const [message, setMessage] = useState<string>();
  const [skipped, setSkipped] = useState<readonly { cell: string; reason: string }[]>([]);
  const [replaced, setReplaced] = useState<readonly ReplacedConstant[]>([]);
  const run = useRef(0);

  const available =
    workbook.readModelSheet !== undefined &&
    workbook.writeLinks !== undefined &&
    workbook.undoLinks !== undefined;

  const reset = (): void => {
    setPlan(undefined);
    setPrice(undefined);
    setFindings(undefined);
    setDecisions(new Map());
    setSkipped([]);
    setMessage(undefined);
  };

  const priceIt = async (): Promise<void> => {
    const mine = ++run.current;
    reset();
    setBusy("Reading the sheet…");
    try {
      const read = await workbook.readModelSheet!(scope === "selection");
      const planned = planLinks(read, scope, index());
      if (mine !== run.current) return;
      setPlan(planned);
      if (!planned.ok) return;
      const client = await api.readyClient();
      if (!client) {
        setPrice(CONNECT_FIRST);
        return;
      }
      const cost = await priceLinks(planned.plan, client);
      if (mine === run.current) setPrice(priceLine(planned, cost));
    } catch (err) {
      if (mine === run.current) setMessage(`Could not read the sheet: ${messageOf(err)}`);
    } finally {
      if (mine === run.current) setBusy(undefined);
    }
  };

  const find = async (): Promise<void> => {
    if (!plan?.ok) return;
    const mine = ++run.current;
    setBusy("Finding matches…");
    setMessage(undefined);
    try {
      const client = await api.readyClient();
      if (!client) {
        setMessage(CONNECT_FIRST);
        return;
      }
      const found = await findLinks(plan.plan, client);
      if (mine !== run.current) return;
      setFindings(found);
      setDecisions(new Map());
      if (found.proposals.length === 0) setMessage("No number matched FDQ's values: nothing to link.");
    } catch (err) {
      if (mine === run.current) setMessage(`Finding matches stopped: ${messageOf(err)}`);
    } finally {
      if (mine === run.current) setBusy(undefined);
    }
  };

  const decide = (keys: readonly string[], decision: Decision | undefined): void =>
    setDecisions((old) => {
      const next = new Map(old);
      for (const k of keys) {
        if (decision) next.set(k, decision);
        else next.delete(k);
      }
      return next;
    });

  const accepted = findings?.proposals.filter((p) => decisions.get(keyOf(p)) === "accepted") ?? [];

  const link = async (): Promise<void> => {
    if (accepted.length === 0) return;
    setBusy("Linking…");
    try {
      const outcome = await workbook.writeLinks!(
        accepted.map((p) => ({ sheet: p.sheet, cell: p.cell, value: p.modelValue, formula: p.formula })),
      );
      const n = outcome.written.length;
      setReplaced((old) => [...old, ...outcome.written]);
      setSkipped(outcome.skipped);
      setFindings(
        (f) =>
          f && {
            ...f,
            proposals: f.proposals.filter(
              (p) => !outcome.written.some((w) => w.sheet === p.sheet && w.cell === p.cell),
            ),
          },
      );
      setMessage(
        `Linked ${n} ${n === 1 ? "number" : "numbers"}: ${n === 1 ? "its cell holds" : "their cells hold"} the FDQ formula now. ` +
          "Undo is available until you close the pane.",
      );
    } catch (err) {
      setMessage(messageOf(err));
    } finally {
      setBusy(undefined);
    }
  };

  const undo = async (): Promise<void> => {
    setBusy("Putting the numbers back…");
    try {
      const outcome = await workbook.undoLinks!(replaced);
      const n = outcome.restored.length;
      setReplaced([]);
      setSkipped(outcome.skipped);
      setMessage(
        `Put back ${n} typed ${n === 1 ? "number" : "numbers"} with ${n === 1 ? "its" : "their"} number format.`,
      );
      setPlan(undefined);
      setPrice(undefined);
      setFindings(undefined);
    } catch (err) {
      setMessage(`Undo stopped: ${messageOf(err)}`);
    } finally {
      setBusy(undefined);
    }
  };

  const proposals = findings?.proposals ?? [];
  return (
    <Card className={styles.root} aria-label="Link numbers">
      <Text weight="semibold">Link numbers</Text>
      <Text size={200}>
        Finds the typed numbers of your model that are FDQ datapoints and proposes the FDQ formula for each.
      </Text>
      {!available && <Text size={200}>This Excel cannot link numbers from the pane.</Text>}
      <Field label="Look in">
        <RadioGroup
          layout="horizontal"
          value={scope}
          onChange={(_, d) => {
            setScope(d.value as LinkScope);
            reset();
          }}
        >
          <Radio value="sheet" label="The active sheet" />
          <Radio value="selection" label="The selection" />
        </RadioGroup>
      </Field>
      <div className={styles.actions}>
        <Button disabled={!available || busy !== undefined} onClick={() => void priceIt()}>
          Price it
        </Button>
        <Button
          appearance="primary"
          disabled={!plan?.ok || price === undefined || price === CONNECT_FIRST || busy !== undefined}
          onClick={() => void find()}
        >
          Find matches
        </Button>
      </div>
      {busy && <Spinner size="tiny" label={busy} />}
      {plan && !plan.ok && (
        <Text size={200} role="alert">
          {plan.problem}
        </Text>
      )}
      {price && (
        <Text size={200} aria-label="Link numbers price">
          {price}
        </Text>
      )}
      {findings && proposals.length > 0 && (
        <>
          <div className={styles.actions}>
            <Button size="small" onClick={() => decide(proposals.map(keyOf), "accepted")}>
              Accept all
            </Button>
            <Button size="small" onClick={() => decide(proposals.map(keyOf), "rejected")}>
              Reject all
            </Button>
          </div>
          <ul className={styles.list} aria-label="Proposals">
            {proposals.map((p) => {
              const key = keyOf(p);
              const decision = decisions.get(key);
              return (
                <li
                  key={key}
                  className={mergeClasses(
                    styles.item,
                    decision === "accepted" && styles.accepted,
                    decision === "rejected" && styles.rejected,
                  )}
                  aria-label={`${p.cell} ${p.label}`}
                >
                  <Text size={200} weight="semibold">
                    {p.cell} {p.label}
                    {decision && <span className={styles.decision}> · {decision}</span>}
                  </Text>
                  <Text size={200}>
                    Model {shown(p.modelValue)} · FDQ {shown(p.fdqValue)} · {differenceText(p.difference)} ·{" "}
                    {p.scale}
                    {p.flipped ? ", sign flipped" : ""} · {p.confidence}
                  </Text>
                  <span className={styles.formula}>{p.formula}</span>
                  <div className={styles.actions}>
                    <ToggleButton
                      size="small"
                      checked={decision === "accepted"}
                      onClick={() => decide([key], decision === "accepted" ? undefined : "accepted")}
                    >
                      Accept
                    </ToggleButton>
                    <ToggleButton
                      size="small"
                      checked={decision === "rejected"}
                      onClick={() => decide([key], decision === "rejected" ? undefined : "rejected")}
                    >
                      Reject
                    </ToggleButton>
                  </div>
                </li>
              );
            })}
          </ul>
        </>
      )}
      {findings && findings.ambiguous.length > 0 && (
        <ul className={styles.notes} aria-label="Ambiguous labels">
          {findings.ambiguous.map((a) => (
            <li key={a.label}>
              <Text size={200}>
                Ambiguous: &quot;{a.label}&quot; could be {a.candidates.join(" or ")}; not linked. Build its
                formula under Find.
              </Text>
            </li>
          ))}
        </ul>
      )}
      {findings && findings.disagree.length > 0 && (
        <ul className={styles.notes} aria-label="Numbers FDQ disagrees with">
          {findings.disagree.map((d) => (
            <li key={d.cell}>
              <Text size={200}>
                {d.cell} {d.label}: the model has {shown(d.modelValue)}, FDQ {shown(d.fdqValue)}; left alone.
              </Text>
            </li>
          ))}
        </ul>
      )}
      {findings && findings.unmatched > 0 && (
        <Text size={200}>
          {findings.unmatched} {findings.unmatched === 1 ? "number" : "numbers"} under labels that name no FDQ
          datapoint left alone.
        </Text>
      )}
      <div className={styles.actions}>
        {findings && (
          <Button
            appearance="primary"
            disabled={accepted.length === 0 || busy !== undefined}
            onClick={() => void link()}
          >
            Link accepted ({accepted.length})
          </Button>
        )}
        {replaced.length > 0 && (
          <Button disabled={busy !== undefined} onClick={() => void undo()}>
            Undo
          </Button>
        )}
      </div>
      {message && <Text size={200}>{message}</Text>}
      {skipped.length > 0 && (
        <ul className={styles.notes}>
          {skipped.map((s) => (
            <li key={s.cell}>
              <Text size={200}>
                {s.cell}: {s.reason}
              </Text>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
