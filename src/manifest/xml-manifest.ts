// The add-in only manifest (manifest.xml, the Office Add-ins XML manifest 1.1 with VersionOverrides 1.0) made from
// the description in addin.ts. It is what Excel 2016, 2019 and 2021 and every perpetual Excel install, and what
// Excel on the web's "Upload My Add-in" takes. Written as text, element by element in the schema's order, so the
// file reads as a person would write it and a change to the description shows as a small diff.
import { ADDIN, addinBase } from "./addin";

/** Text for an XML attribute value in double quotes. */
function attr(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** The three ribbon images of a group or a control, indented by `pad`. */
function ribbonIcon(pad: string): string {
  const images = ADDIN.icons.ribbon.map(
    (icon) => `${pad}  <bt:Image size="${icon.size}" resid="Icon.${icon.size}x${icon.size}"/>`,
  );
  return [`${pad}<Icon>`, ...images, `${pad}</Icon>`].join("\n");
}

/** The add-in only manifest for the add-in served from `url` (https; http only for localhost). */
export function manifestXml(url: string): string {
  const base = addinBase(url);
  const at = (file: string): string => attr(base + file);
  const origin = new URL(base).origin;
  const { ribbon, icons, functions, getStarted } = ADDIN;
  const version = `${ADDIN.version}.0`;
  const sets = ADDIN.requirementSets
    .map((set) => `      <Set Name="${set.name}" MinVersion="${set.minVersion}"/>`)
    .join("\n");
  const images = icons.ribbon
    .map((icon) => `        <bt:Image id="Icon.${icon.size}x${icon.size}" DefaultValue="${at(icon.path)}"/>`)
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<!--
  FDQ for Excel: the add-in only (XML) manifest, with one shared runtime for the custom functions, the task pane
  and the ribbon commands. Made from src/manifest/addin.ts by \`npm run manifests\` (edit that, not this file); URLs
  point at the dev server, and \`npm run build\` writes dist/manifest.xml for the URL in FDQ_ADDIN_URL. Check with
  \`npm run validate\`.
-->
<OfficeApp xmlns="http://schemas.microsoft.com/office/appforoffice/1.1"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xmlns:bt="http://schemas.microsoft.com/office/officeappbasictypes/1.0"
  xmlns:ov="http://schemas.microsoft.com/office/taskpaneappversionoverrides" xsi:type="TaskPaneApp">
  <Id>${ADDIN.xmlId}</Id>
  <Version>${version}</Version>
  <ProviderName>${attr(ADDIN.provider)}</ProviderName>
  <DefaultLocale>${ADDIN.locale}</DefaultLocale>
  <DisplayName DefaultValue="${attr(ADDIN.name)}"/>
  <Description DefaultValue="${attr(ADDIN.description)}"/>
  <IconUrl DefaultValue="${at(icons.icon.path)}"/>
  <HighResolutionIconUrl DefaultValue="${at(icons.highResolution.path)}"/>
  <SupportUrl DefaultValue="${at(ADDIN.supportPage)}"/>
  <AppDomains>
    <AppDomain>${attr(origin)}</AppDomain>
  </AppDomains>
  <Hosts>
    <Host Name="Workbook"/>
  </Hosts>
  <Requirements>
    <Sets DefaultMinVersion="1.1">
${sets}
    </Sets>
  </Requirements>
  <DefaultSettings>
    <SourceLocation DefaultValue="${at(ADDIN.page)}"/>
  </DefaultSettings>
  <Permissions>${ADDIN.permission.xml}</Permissions>
  <VersionOverrides xmlns="http://schemas.microsoft.com/office/taskpaneappversionoverrides" xsi:type="VersionOverridesV1_0">
    <Hosts>
      <Host xsi:type="Workbook">
        <Runtimes>
          <Runtime resid="Taskpane.Url" lifetime="${ADDIN.runtime.lifetime}"/>
        </Runtimes>
        <AllFormFactors>
          <ExtensionPoint xsi:type="CustomFunctions">
            <Script>
              <SourceLocation resid="Functions.Script.Url"/>
            </Script>
            <Page>
              <SourceLocation resid="Taskpane.Url"/>
            </Page>
            <Metadata>
              <SourceLocation resid="Functions.Metadata.Url"/>
            </Metadata>
            <Namespace resid="Functions.Namespace"/>
          </ExtensionPoint>
        </AllFormFactors>
        <DesktopFormFactor>
          <GetStarted>
            <Title resid="GetStarted.Title"/>
            <Description resid="GetStarted.Description"/>
            <LearnMoreUrl resid="GetStarted.LearnMoreUrl"/>
          </GetStarted>
          <FunctionFile resid="Taskpane.Url"/>
          <ExtensionPoint xsi:type="PrimaryCommandSurface">
            <OfficeTab id="${ribbon.tab}">
              <Group id="${ribbon.group.id}">
                <Label resid="FdqGroup.Label"/>
${ribbonIcon("                ")}
                <Control xsi:type="Button" id="${ribbon.taskpane.id}">
                  <Label resid="TaskpaneButton.Label"/>
                  <Supertip>
                    <Title resid="TaskpaneButton.Label"/>
                    <Description resid="TaskpaneButton.Tooltip"/>
                  </Supertip>
${ribbonIcon("                  ")}
                  <Action xsi:type="ShowTaskpane">
                    <TaskpaneId>${ribbon.taskpane.paneId}</TaskpaneId>
                    <SourceLocation resid="Taskpane.Url"/>
                  </Action>
                </Control>
                <Control xsi:type="Button" id="${ribbon.refresh.id}">
                  <Label resid="RefreshButton.Label"/>
                  <Supertip>
                    <Title resid="RefreshButton.Label"/>
                    <Description resid="RefreshButton.Tooltip"/>
                  </Supertip>
${ribbonIcon("                  ")}
                  <Action xsi:type="ExecuteFunction">
                    <FunctionName>${ribbon.refresh.functionName}</FunctionName>
                  </Action>
                </Control>
              </Group>
            </OfficeTab>
          </ExtensionPoint>
        </DesktopFormFactor>
      </Host>
    </Hosts>
    <Resources>
      <bt:Images>
${images}
      </bt:Images>
      <bt:Urls>
        <bt:Url id="Functions.Script.Url" DefaultValue="${at(functions.script)}"/>
        <bt:Url id="Functions.Metadata.Url" DefaultValue="${at(functions.metadata)}"/>
        <bt:Url id="GetStarted.LearnMoreUrl" DefaultValue="${at(ADDIN.supportPage)}"/>
        <bt:Url id="Taskpane.Url" DefaultValue="${at(ADDIN.page)}"/>
      </bt:Urls>
      <bt:ShortStrings>
        <bt:String id="Functions.Namespace" DefaultValue="${attr(functions.namespace)}"/>
        <bt:String id="GetStarted.Title" DefaultValue="${attr(getStarted.title)}"/>
        <bt:String id="FdqGroup.Label" DefaultValue="${attr(ribbon.group.label)}"/>
        <bt:String id="TaskpaneButton.Label" DefaultValue="${attr(ribbon.taskpane.label)}"/>
        <bt:String id="RefreshButton.Label" DefaultValue="${attr(ribbon.refresh.label)}"/>
      </bt:ShortStrings>
      <bt:LongStrings>
        <bt:String id="GetStarted.Description" DefaultValue="${attr(getStarted.description)}"/>
        <bt:String id="TaskpaneButton.Tooltip" DefaultValue="${attr(ribbon.taskpane.tooltip)}"/>
        <bt:String id="RefreshButton.Tooltip" DefaultValue="${attr(ribbon.refresh.tooltip)}"/>
      </bt:LongStrings>
    </Resources>
  </VersionOverrides>
</OfficeApp>
`;
}
