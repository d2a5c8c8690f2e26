// Templates: sheets the analyst inserts from the task pane's gallery or makes with `fdq new` (docs/templates.md).
export * from "./template-sheet";
export { TEMPLATES, buildTemplate, catalogDatapoint, checkTemplateParams, findTemplate } from "./definitions";
export { templateCalls } from "./template-calls";
