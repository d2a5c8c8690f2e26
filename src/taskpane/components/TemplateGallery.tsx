// The template gallery: each template (src/workbook/templates) with a preview of its sheet's layout and what
// filling it costs for the tickers the analyst types; "Insert as new sheet" writes it through Office.js, and its
// FDQ cells then calculate and refresh as any other.
import { Button, Card, Field, Input, Select, Text, makeStyles, tokens } from "@fluentui/react-components";
import { useEffect, useState } from "react";
import { TEMPLATES } from "../../workbook/templates";
import { previewGrid, previewTemplate, type TemplatePreview } from "../logic/template-gallery";
import { messageOf } from "../logic/message";
import { useServices } from "../services";

const useStyles = makeStyles({
  root: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalS },
  grid: {
    borderCollapse: "collapse",
    width: "100%",
    tableLayout: "fixed",
    fontSize: tokens.fontSizeBase100,
    "& td": {
      border: `1px solid ${tokens.colorNeutralStroke2}`,
      padding: "1px 3px",
      overflow: "hidden",
      whiteSpace: "nowrap",
      textOverflow: "ellipsis",
    },
  },
  actions: { display: "flex", gap: tokens.spacingHorizontalS, flexWrap: "wrap" },
});

export function TemplateGallery() {
  const styles = useStyles();
  const { workbook, api } = useServices();
  const [name, setName] = useState(TEMPLATES[0]!.name);
  const template = TEMPLATES.find((t) => t.name === name) ?? TEMPLATES[0]!;
  const [tickers, setTickers] = useState("");
  // The peer comparison's datapoints, as DATASET:NAME pairs; its own choice until the analyst edits them.
  const [datapoints, setDatapoints] = useState("");
  const [preview, setPreview] = useState<TemplatePreview>();
  const [problem, setProblem] = useState<string>();
  const [status, setStatus] = useState<string>();

  useEffect(() => {
    let live = true;
    setStatus(undefined);
    if (tickers.trim() === "") {
      setPreview(undefined);
      setProblem(undefined);
      return;
    }
    previewTemplate(template, tickers, api.client(), template.datapoints ? datapoints : "").then(
      (p) => {
        if (!live) return;
        setPreview(p);
        setProblem(undefined);
      },
      (err: unknown) => {
        if (!live) return;
        setPreview(undefined);
        setProblem(messageOf(err));
      },
    );
    return () => {
      live = false;
    };
  }, [template, tickers, datapoints, api]);

  const insert = async (): Promise<void> => {
    if (!preview || !workbook.insertSheet) return;
    try {
      const sheet = await workbook.insertSheet(preview.sheet);
      setStatus(
        `Inserted the sheet "${sheet}". Its FDQ cells calculate now; Refresh fills them again any day.`,
      );
    } catch (err) {
      setStatus(`Could not insert the sheet: ${messageOf(err)}`);
    }
  };

  const grid = preview ? previewGrid(preview.sheet) : undefined;
  const { min, max } = template.tickers;
  return (
    <Card className={styles.root} aria-label="Templates">
      <Text weight="semibold">Templates</Text>
      <Field label="Template">
        <Select value={name} onChange={(_, d) => setName(d.value)}>
          {TEMPLATES.map((t) => (
            <option key={t.name} value={t.name}>
              {t.title}
            </option>
          ))}
        </Select>
      </Field>
      <Text size={200}>{template.summary}</Text>
      <Field
        label={max === 1 ? "Ticker" : `Tickers (${min} to ${max}, separated by commas)`}
        validationState={problem ? "error" : "none"}
        validationMessage={problem}
      >
        <Input
          value={tickers}
          onChange={(_, d) => setTickers(d.value)}
          placeholder={max === 1 ? "AAPL" : "AAPL, MSFT"}
        />
      </Field>
      {template.datapoints && (
        <Field label="Datapoints (DATASET:NAME, separated by commas)">
          <Input
            value={datapoints}
            onChange={(_, d) => setDatapoints(d.value)}
            placeholder={template.datapoints.join(", ")}
          />
        </Field>
      )}
      {grid && (
        <table className={styles.grid} aria-label="Template preview">
          <tbody>
            {grid.map((row, r) => (
              <tr key={r}>
                {row.map((cell, c) => (
                  <td key={c} title={cell}>
                    {cell}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {preview?.units !== undefined && (
        <Text size={200} aria-label="Template cost">
          Filling it costs {preview.atMost ? "at most " : ""}
          {preview.units} quota {preview.units === 1 ? "unit" : "units"} ({preview.requests}{" "}
          {preview.requests === 1 ? "request" : "requests"} not in today&apos;s cache
          {preview.atMost
            ? "; less if the day's ticker coverage list, asked first, does not list some tickers"
            : ""}
          ).
        </Text>
      )}
      {preview && preview.units === undefined && (
        <Text size={200}>Connect (Connect tab) to see what filling it costs.</Text>
      )}
      <div className={styles.actions}>
        <Button appearance="primary" disabled={!preview} onClick={() => void insert()}>
          Insert as new sheet
        </Button>
      </div>
      {status && <Text size={200}>{status}</Text>}
    </Card>
  );
}
