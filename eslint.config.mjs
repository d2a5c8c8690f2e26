import js from "@eslint/js";
import tseslint from "typescript-eslint";
// eslint-plugin-import-x (MIT): its rule resolves each import to its file, so "no deep import into src/api" is
// checked on real paths, not on the spelling of an import string.
import { createNodeResolver, importX } from "eslint-plugin-import-x";

export default tseslint.config(
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
          ],
        },
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
