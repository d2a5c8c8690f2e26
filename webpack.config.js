// Builds the shared-runtime page the way OfficeDev/Excel-Custom-Functions-Shared does: the task pane,
// the custom functions and the ribbon commands are three entries loaded by ONE page (taskpane.html),
// which the manifest names as the runtime, the functions page and the function file.
// `npm run build` writes dist/ for the production URL in FDQ_ADDIN_URL (default https://localhost:3000/), with
// both manifests and the app package made for that URL from the add-in's one description (src/manifest);
// `npm run dev-server` serves https://localhost:3000 with office-addin-dev-certs (http when FDQ_DEV_HTTP=1
// or when no certificate can be had).
const { Buffer } = require("node:buffer");
const fs = require("node:fs");
const path = require("node:path");
const CopyWebpackPlugin = require("copy-webpack-plugin");
const CustomFunctionsMetadataPlugin = require("custom-functions-metadata-plugin");
const HtmlWebpackPlugin = require("html-webpack-plugin");
const MinimizerPlugin = require("minimizer-webpack-plugin");
// The add-in's description and its manifests are TypeScript (src/manifest, which `fdq serve` uses too): tsx
// compiles them on require.
const tsx = require("tsx/cjs/api");
const addin = tsx.require(path.join(__dirname, "src/manifest/index.ts"), __dirname);
// The task pane's Content-Security-Policy (src/manifest/content-security-policy.ts explains it; the gateway sends
// the same policy as a header), joined as policyText() joins it.
const CSP = Object.entries(require("./src/manifest/content-security-policy.json"))
  .map(([directive, sources]) => [directive, ...sources].join(" "))
  .join("; ");

const DEV_URL = addin.DEV_ADDIN_URL;
const DEV_PORT = 3000;

/** The production URL with exactly one trailing slash; must be https except for localhost. */
function addinUrl() {
  const raw = process.env.FDQ_ADDIN_URL || DEV_URL;
  try {
    return addin.addinBase(raw);
  } catch {
    throw new Error(`FDQ_ADDIN_URL must be an https URL (http only for localhost): ${raw}`);
  }
}

/** Emits manifest.xml, manifest.json and the app package (manifest.json and its two icons) for the add-in's URL. */
class ManifestsPlugin {
  constructor(url) {
    this.url = url;
  }

  apply(compiler) {
    const { Compilation, sources } = compiler.webpack;
    compiler.hooks.thisCompilation.tap("FdqManifests", (compilation) => {
      const stage = Compilation.PROCESS_ASSETS_STAGE_ADDITIONS;
      compilation.hooks.processAssets.tap({ name: "FdqManifests", stage }, () => {
        const json = addin.manifestJson(this.url);
        const zip = addin.appPackage(json, (file) => fs.readFileSync(path.join(__dirname, file)));
        compilation.emitAsset("manifest.xml", new sources.RawSource(addin.manifestXml(this.url)));
        compilation.emitAsset("manifest.json", new sources.RawSource(json));
        compilation.emitAsset(addin.APP_PACKAGE_FILE, new sources.RawSource(Buffer.from(zip)));
      });
    });
  }
}

/**
 * https with office-addin-dev-certs, as Office requires; scripts/dev-certificates.ts decides, and `npm start` says
 * what it decided. On Windows and macOS the certificates are made and trusted on first use (the template's
 * behaviour); on Linux only installed ones are used. Without them: http, enough for browser tests.
 */
async function devServerTransport() {
  const certificates = tsx.require(path.join(__dirname, "scripts/dev-certificates.ts"), __dirname);
  const scheme = certificates.devServerScheme();
  if (!scheme.https) {
    if (process.env.FDQ_DEV_HTTP !== "1") {
      console.warn(
        `${scheme.reason}: serving http://localhost:${DEV_PORT} instead of https, which Excel refuses`,
      );
    }
    return { type: "http" };
  }
  try {
    const devCerts = require("office-addin-dev-certs");
    if (process.platform === "linux") {
      const [ca, cert, key] = certificates.certificateFiles().map((f) => fs.readFileSync(f));
      return { type: "https", options: { ca, key, cert } };
    }
    const { ca, key, cert } = await devCerts.getHttpsServerOptions();
    return { type: "https", options: { ca, key, cert } };
  } catch (err) {
    console.warn(
      `office-addin-dev-certs: ${err.message}; serving http://localhost:${DEV_PORT} instead of https`,
    );
    return { type: "http" };
  }
}

module.exports = async (env, options) => {
  const dev = options.mode === "development";
  const serving = Boolean(env && env.WEBPACK_SERVE);
  const url = addinUrl();
  return {
    devtool: dev ? "source-map" : false,
    entry: {
      taskpane: "./src/taskpane/index.tsx",
      commands: "./src/commands/commands.ts",
      functions: "./src/functions/functions.ts",
    },
    output: {
      path: path.resolve(__dirname, "dist"),
      filename: "[name].js",
      clean: true,
    },
    resolve: { extensions: [".ts", ".tsx", ".js"] },
    module: {
      rules: [
        {
          test: /\.tsx?$/,
          exclude: /node_modules/,
          // ES modules (tsconfig says commonjs for Node) so webpack can drop the unused parts of Fluent UI.
          use: {
            loader: "ts-loader",
            options: { transpileOnly: true, compilerOptions: { module: "es2020" } },
          },
        },
      ],
    },
    optimization: {
      // One webpack runtime for the three entries of the page, so a module they share (above all the
      // shared FdqClient of src/host/shared-client.ts) is instantiated once, not once per entry.
      runtimeChunk: "single",
      splitChunks: { chunks: "all" },
      // swc's minifier (@swc/core, already the tests' TypeScript compiler) instead of webpack's default terser:
      // output of the same kind, for a fraction of the build's CPU (the production build ran terser for most
      // of its 35-55 s on the 2-core machine). minimizer-webpack-plugin is webpack's own minimizer plugin.
      minimizer: [new MinimizerPlugin({ minify: MinimizerPlugin.swcMinify })],
    },
    // The runtime is a browser page: Node built-ins used by CLI-only modules must not be bundled.
    externalsPresets: { web: true },
    performance: { hints: false },
    plugins: [
      new CustomFunctionsMetadataPlugin({ output: "functions.json", input: "./src/functions/functions.ts" }),
      new HtmlWebpackPlugin({
        filename: "taskpane.html",
        template: "./src/taskpane/taskpane.html",
        csp: CSP,
        chunks: ["taskpane", "commands", "functions"],
      }),
      new CopyWebpackPlugin({
        patterns: [{ from: "assets/*.png", to: "assets/[name][ext]" }],
      }),
      // The development build names the dev server, whatever FDQ_ADDIN_URL says.
      new ManifestsPlugin(dev ? DEV_URL : url),
    ],
    devServer: serving
      ? {
          host: "127.0.0.1",
          port: DEV_PORT,
          headers: { "Access-Control-Allow-Origin": "*" },
          server: await devServerTransport(),
          static: { directory: path.resolve(__dirname, "dist") },
        }
      : undefined,
  };
};
