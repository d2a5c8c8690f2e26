// CommonJS, so a test can load this very config and hand it to ESLint's Node API (jest cannot import an ES module).
const js = require("@eslint/js");
const tseslint = require("typescript-eslint");
// eslint-plugin-import-x (MIT): its rule resolves each import to its file, so "no deep import into src/api" is
// checked on real paths, not on the spelling of an import string.
const { createNodeResolver, importX } = require("eslint-plugin-import-x");

/** Why the fetch boundary below refused a line. */
const FETCH_BOUNDARY =
  'Only src/api, the gateway\'s upstream requests and the sandbox call fetch (docs/architecture.md, "Who calls fetch"): ' +
  "send the request through src/api, or call a fetch you were given.";
/** The names of the global object. */
const GLOBAL_OBJECTS = ["globalThis", "window", "self", "global"];
const GLOBAL_NAME = `/^(${GLOBAL_OBJECTS.join("|")})$/`;
/** An expression with a type assertion around it: `x as T`, `<T>x`, `x!`, `x satisfies T`. */
const CAST = "/^(TSAsExpression|TSTypeAssertion|TSNonNullExpression|TSSatisfiesExpression)$/";
/**
 * Attribute selectors saying that the node's `field` is the global object in one or two type assertions
 * (`globalThis as Foo`, `globalThis as unknown as Foo`). Attribute paths, because esquery's :has does not
 * follow child combinators reliably.
 */
const castGlobal = (field) => [
  `[${field}.type=${CAST}][${field}.expression.name=${GLOBAL_NAME}]`,
  `[${field}.type=${CAST}][${field}.expression.type=${CAST}][${field}.expression.expression.name=${GLOBAL_NAME}]`,
];

module.exports = tseslint.config(
  { ignores: ["dist/**", "build/**", "node_modules/**", "test/artifacts/**", "coverage/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-console": "off",
    },
  },
  {
    // The house's structure (docs/architecture.md): src/api is a package whose surface is src/api/index.ts
    // (plus src/api/node.ts for the Node-only stores); no file outside it imports its internals. (No import
    // circle in src/ is lint's other structure check: scripts/import-cycles.ts, run by `npm run lint`.)
    files: ["**/*.ts", "**/*.tsx"],
    plugins: { "import-x": importX },
    settings: {
      // The resolver reads the files an import reaches only if their extension is listed here.
      "import-x/extensions": [".ts", ".tsx", ".js"],
      "import-x/resolver-next": [createNodeResolver({ extensions: [".ts", ".tsx", ".js", ".json"] })],
    },
    rules: {
      "import-x/no-restricted-paths": [
        "error",
        {
          zones: [
            {
              target: ["./!(src)/**", "./src/!(api)/**", "./*.ts"],
              from: "./src/api",
              except: ["./index.ts", "./node.ts"],
              message:
                "Import src/api through its surface: src/api/index.ts (or src/api/node.ts for Node-only stores).",
            },
            {
              // The request module serves Excel, the CLI and the gateway alike: it reads the catalog and nothing
              // above it (no host wording, no Office, no cells).
              target: "./src/api/**",
              from: "./src/!(api|catalog)/**",
              message:
                "src/api depends on src/catalog only: pass host wording (hints) and stores in as options.",
            },
            // The layers below and above the request module (docs/architecture.md, "Layers"): catalog and formula; api;
            // functions, host, manifest and the sandbox; workbook; the surfaces (taskpane, commands, gateway, cli);
            // then tests, benchmarks and scripts. A layer imports only from the layers under it.
            {
              target: "./src/catalog/**",
              from: "./src/!(catalog)/**",
              message: "src/catalog is the bottom layer: the contract as data imports nothing of the add-in.",
            },
            {
              // Excel's formula language (lexer, parser, syntax error, Excel's values and grid): the FDQ-call
              // reader, the formula engine and the pane read formulas through it; it reads nothing of theirs.
              target: "./src/formula/**",
              from: "./src/!(formula)/**",
              message: "src/formula is Excel's formula language: it imports nothing of the add-in.",
            },
            {
              target: ["./src/functions/**", "./src/host/**"],
              from: [
                "./src/workbook",
                "./src/taskpane",
                "./src/commands",
                "./src/gateway",
                "./src/cli",
                "./src/sandbox",
                "./src/manifest",
              ],
              message:
                "src/functions and src/host sit on src/api: they import no workbook, surface or sandbox.",
            },
            {
              target: "./src/manifest/**",
              from: "./src/!(manifest)/**",
              message: "src/manifest is the add-in's description: it imports nothing of the add-in's code.",
            },
            {
              target: "./src/sandbox/**",
              from: "./src/!(sandbox|api|catalog)/**",
              message: "src/sandbox serves the contract: it imports src/catalog and src/api only.",
            },
            {
              target: "./src/workbook/**",
              from: [
                "./src/taskpane",
                "./src/commands",
                "./src/gateway",
                "./src/cli",
                "./src/sandbox",
                "./src/manifest",
              ],
              message:
                "src/workbook sits under the surfaces: the pane, the gateway and the CLI use it, not the reverse.",
            },
            // Inside src/workbook, by concern (docs/architecture.md, "src/workbook by concern"): the base (model,
            // formula text, index, own parts, engine, xlsx) serves refresh, freeze, share, changes and repair;
            // share freezes a copy and changes re-reads calls, so they sit on freeze and on refresh.
            {
              target: ["./src/workbook/*.ts", "./src/workbook/engine/**", "./src/workbook/xlsx/**"],
              from: [
                "./src/workbook/refresh",
                "./src/workbook/freeze",
                "./src/workbook/share",
                "./src/workbook/changes",
                "./src/workbook/repair",
                "./src/workbook/templates",
                "./src/workbook/retrofit",
              ],
              message:
                "src/workbook's base (model, engine, xlsx, own parts) imports none of the concerns above it.",
            },
            {
              target: ["./src/workbook/refresh/**", "./src/workbook/freeze/**", "./src/workbook/repair/**"],
              from: ["./src/workbook/share", "./src/workbook/changes", "./src/workbook/retrofit"],
              message:
                "refresh, freeze and repair stand side by side on the workbook base: none imports share or changes.",
            },
            {
              target: "./src/workbook/refresh/**",
              from: ["./src/workbook/freeze", "./src/workbook/repair"],
              message: "refresh stands beside freeze and repair: it imports neither.",
            },
            {
              target: ["./src/workbook/freeze/**", "./src/workbook/repair/**"],
              from: "./src/workbook/refresh",
              message: "freeze and repair stand beside refresh: they import none of it.",
            },
            {
              target: "./src/workbook/templates/**",
              from: [
                "./src/workbook/refresh",
                "./src/workbook/freeze",
                "./src/workbook/share",
                "./src/workbook/changes",
                "./src/workbook/repair",
              ],
              message:
                "templates write new sheets on the workbook base: they import none of refresh, freeze, share, changes or repair.",
            },
            {
              target: [
                "./src/workbook/refresh/**",
                "./src/workbook/freeze/**",
                "./src/workbook/share/**",
                "./src/workbook/changes/**",
                "./src/workbook/repair/**",
              ],
              from: "./src/workbook/templates",
              message: "templates stand beside the other concerns: none of them imports templates.",
            },
            {
              target: "./src/workbook/share/**",
              from: [
                "./src/workbook/refresh",
                "./src/workbook/changes",
                "./src/workbook/repair",
                "./src/workbook/retrofit",
              ],
              message: "share freezes a copy: it sits on freeze and the workbook base only.",
            },
            {
              target: "./src/workbook/retrofit/**",
              from: [
                "./src/workbook/refresh",
                "./src/workbook/share",
                "./src/workbook/changes",
                "./src/workbook/repair",
              ],
              message:
                "retrofit proposes FDQ formulas for constants and keeps them for thaw: it sits on freeze and the workbook base only.",
            },
            {
              target: "./src/workbook/changes/**",
              from: [
                "./src/workbook/freeze",
                "./src/workbook/share",
                "./src/workbook/repair",
                "./src/workbook/retrofit",
              ],
              message:
                "changes re-reads calls through refresh: it sits on refresh and the workbook base only.",
            },
            {
              target: "./src/taskpane/**",
              from: ["./src/commands", "./src/gateway", "./src/cli", "./src/sandbox"],
              message: "src/taskpane is a surface: it does not import another surface or the sandbox.",
            },
            {
              target: "./src/gateway/**",
              from: [
                "./src/functions",
                "./src/host",
                "./src/workbook",
                "./src/taskpane",
                "./src/commands",
                "./src/cli",
                "./src/sandbox",
              ],
              message: "src/gateway relays requests: it imports src/api, src/catalog and src/manifest only.",
            },
            {
              target: "./src/cli/**",
              from: ["./src/host", "./src/taskpane", "./src/commands"],
              message:
                "src/cli runs outside Excel: it imports nothing of Office (host, task pane, commands).",
            },
            {
              target: "./src/commands/**",
              from: ["./src/gateway", "./src/cli", "./src/sandbox"],
              message: "src/commands runs in Excel: it imports no gateway, CLI or sandbox.",
            },
            {
              target: "./src/**",
              from: ["./test", "./bench", "./scripts"],
              message: "src/ ships: it imports nothing from the tests, the benchmarks or the scripts.",
            },
          ],
        },
      ],
    },
  },
  {
    // Who calls fetch (docs/architecture.md): the request module (src/api), the gateway's requests upstream
    // (upstream.ts) and the sandbox. Anywhere else in src/ a request goes through src/api or calls
    // a fetch it was given: the platform's fetch is not read there under any name (the global, a property of the
    // global object, an alias of either, a destructured or computed property). test/unit/api/fetch-boundary.test.ts
    // proves each form is caught.
    files: ["src/**/*.ts", "src/**/*.tsx"],
    ignores: ["src/api/**", "src/sandbox/**", "src/gateway/upstream.ts"],
    rules: {
      "no-restricted-globals": ["error", { name: "fetch", message: FETCH_BOUNDARY }],
      "no-restricted-properties": [
        "error",
        ...GLOBAL_OBJECTS.map((object) => ({ object, property: "fetch", message: FETCH_BOUNDARY })),
      ],
      "no-restricted-syntax": [
        "error",
        ...[
          // const g = globalThis; g.fetch(...)  (also with type assertions: globalThis as unknown as Foo)
          `VariableDeclarator[id.type='Identifier'][init.name=${GLOBAL_NAME}]`,
          ...castGlobal("init").map((cast) => `VariableDeclarator[id.type='Identifier']${cast}`),
          `AssignmentExpression[right.name=${GLOBAL_NAME}]`,
          ...castGlobal("right").map((cast) => `AssignmentExpression${cast}`),
          // (globalThis as Foo).fetch, globalThis.window.fetch, const { fetch } = globalThis as Foo
          ...castGlobal("object").map((cast) => `MemberExpression[property.name='fetch']${cast}`),
          ...castGlobal("object").map((cast) => `MemberExpression[property.value='fetch']${cast}`),
          `MemberExpression[property.name='fetch'][object.type='MemberExpression'][object.property.name=${GLOBAL_NAME}]`,
          ...castGlobal("init").map(
            (cast) => `VariableDeclarator${cast} > ObjectPattern.id > Property[key.name='fetch']`,
          ),
          // globalThis[name], Reflect.get(globalThis, name): a property of the global object nobody can read here
          `MemberExpression[computed=true][property.type!='Literal'][object.name=${GLOBAL_NAME}]`,
          `CallExpression[callee.object.name='Reflect'] > Identifier.arguments[name=${GLOBAL_NAME}]`,
        ].map((selector) => ({ selector, message: FETCH_BOUNDARY })),
      ],
    },
  },
  {
    // The request module's own unit tests test its internals (the transport, the day cache, the codecs), so
    // they may import them; every other test goes through the surface like the rest of the code.
    files: ["test/unit/api/**"],
    rules: { "import-x/no-restricted-paths": "off" },
  },
  {
    files: ["**/*.js", "**/*.cjs"],
    languageOptions: {
      sourceType: "commonjs",
      globals: {
        require: "readonly",
        module: "writable",
        __dirname: "readonly",
        process: "readonly",
        console: "readonly",
      },
    },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
);
