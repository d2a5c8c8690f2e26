// The task pane: four tabs (Find, Cell, Workbook, Connect) in Fluent UI, following the Office theme.
import {
  FluentProvider,
  Tab,
  TabList,
  Text,
  makeStyles,
  tokens,
  webDarkTheme,
  webLightTheme,
} from "@fluentui/react-components";
import { useCallback, useEffect, useMemo, useState } from "react";
import { datapointMetadata } from "../../catalog";
import { CatalogSearchIndex, type SearchEntry } from "../../catalog/search";
import type { ThemeKind } from "../office/platform";
import { useServices } from "../services";
import { CacheWarnings } from "./CacheWarnings";
import { ChangesPanel } from "./ChangesPanel";
import { ConnectPanel } from "./ConnectPanel";
import { DatapointSearch } from "./DatapointSearch";
import { DoctorOffer, DoctorPanel } from "./DoctorPanel";
import { ErrorsPanel } from "./ErrorsPanel";
import { ExplainPanel } from "./ExplainPanel";
import { FormulaBuilder } from "./FormulaBuilder";
import { FreezePanel } from "./FreezePanel";
import { HealthPanel } from "./HealthPanel";
import { LinkNumbersPanel } from "./LinkNumbersPanel";
import { RefreshPanel } from "./RefreshPanel";
import { SharePanel } from "./SharePanel";
import { StatusPanel } from "./StatusPanel";
import { TemplateGallery } from "./TemplateGallery";
import { ValuesPanel } from "./ValuesPanel";
import { useQuotaSettings } from "./useQuotaSettings";
import { useRefresh } from "./useRefresh";
import { useDoctor } from "./useDoctor";
import { useUsage } from "./useUsage";

type TabName = "find" | "cell" | "workbook" | "connect";

const useStyles = makeStyles({
  page: {
    minHeight: "100vh",
    boxSizing: "border-box",
    padding: tokens.spacingHorizontalM,
    display: "flex",
    flexDirection: "column",
    gap: tokens.spacingVerticalM,
    backgroundColor: tokens.colorNeutralBackground2,
    color: tokens.colorNeutralForeground1,
  },
  panel: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalM },
  tabs: { marginLeft: `calc(-1 * ${tokens.spacingHorizontalM})` },
});

/** Descriptions from the service's /v1/datapoint, which are the real ones; the catalog's until they load. */
function useServiceDescriptions(version: number): ReadonlyMap<string, string> | undefined {
  const { api } = useServices();
  const [descriptions, setDescriptions] = useState<ReadonlyMap<string, string>>();
  useEffect(() => {
    let live = true;
    api.datapointMetadata().then(
      (list) => live && list.length > 0 && setDescriptions(new Map(list.map((m) => [m.name, m.description]))),
      () => undefined, // keep the catalog's descriptions
    );
    return () => {
      live = false;
    };
  }, [api, version]);
  return descriptions;
}

export function App() {
  const styles = useStyles();
  const { platform, api, refresher } = useServices();
  const [theme, setTheme] = useState<ThemeKind>(() => platform.theme());
  const [version, setVersion] = useState(0);
  const [tab, setTab] = useState<TabName>(() => (api.client() ? "find" : "connect"));
  const [chosen, setChosen] = useState<SearchEntry>();
  const [ticker, setTicker] = useState("");
  const bump = useCallback(() => setVersion((v) => v + 1), []);
  const refresh = useRefresh(bump);
  const { usage, reload: reloadUsage } = useUsage(version);
  // A new billing model or refresh policy changes the prices and what the cache keeps: read both again.
  const quotaSaved = useCallback(() => {
    reloadUsage();
    const state = refresher.state();
    if (state.phase === "estimated") void refresher.estimate(state.scope);
  }, [reloadUsage, refresher]);
  const quota = useQuotaSettings(quotaSaved);
  const doctor = useDoctor();
  const reviewRepair = useCallback(() => {
    doctor.dismissOffer();
    setTab("workbook");
  }, [doctor]);

  useEffect(() => platform.onThemeChanged(setTheme), [platform]);

  const descriptions = useServiceDescriptions(version);
  const index = useMemo(() => CatalogSearchIndex.fromCatalog(descriptions), [descriptions]);
  const describe = useCallback(
    (name: string) => descriptions?.get(name) ?? datapointMetadata().get(name)?.description ?? "",
    [descriptions],
  );

  return (
    <FluentProvider theme={theme === "dark" ? webDarkTheme : webLightTheme} data-theme={theme}>
      <main className={styles.page}>
        <TabList
          className={styles.tabs}
          size="small"
          selectedValue={tab}
          onTabSelect={(_, d) => setTab(d.value as TabName)}
          aria-label="FDQ task pane sections"
        >
          <Tab value="find">Find</Tab>
          <Tab value="cell">Cell</Tab>
          <Tab value="workbook">Workbook</Tab>
          <Tab value="connect">Connect</Tab>
        </TabList>
        <CacheWarnings />
        <DoctorOffer doctor={doctor} onReview={reviewRepair} />
        {tab === "find" && (
          <div className={styles.panel} role="tabpanel" aria-label="Find">
            <DatapointSearch index={index} onChoose={setChosen} />
            {chosen ? (
              <FormulaBuilder entry={chosen} ticker={ticker} onTickerChange={setTicker} />
            ) : (
              <Text size={200}>Choose a datapoint to build its formula.</Text>
            )}
          </div>
        )}
        {tab === "cell" && (
          <div className={styles.panel} role="tabpanel" aria-label="Cell">
            <ExplainPanel describe={describe} />
            <FreezePanel />
          </div>
        )}
        {tab === "workbook" && (
          <div className={styles.panel} role="tabpanel" aria-label="Workbook">
            <RefreshPanel control={refresh} usage={usage} quota={quota} />
            <TemplateGallery />
            <LinkNumbersPanel />
            <HealthPanel />
            <ChangesPanel version={version} />
            <ErrorsPanel />
            <DoctorPanel doctor={doctor} />
            <SharePanel />
            <StatusPanel usage={usage} quota={quota} onChanged={reloadUsage} />
          </div>
        )}
        {tab === "connect" && (
          <div className={styles.panel} role="tabpanel" aria-label="Connect">
            <ConnectPanel onSaved={bump} />
            <ValuesPanel index={index} />
          </div>
        )}
      </main>
    </FluentProvider>
  );
}
