// Renders the add-in's icons with the system Chromium, keeping transparency: from assets/logo.svg the PNG sizes
// the add-in only manifest asks for (ribbon 16/32/80, IconUrl 32, HighResolutionIconUrl 64, store listing 128) and
// the unified manifest's colour icon (192), and from assets/logo-outline.svg its white outline icon (32).
// Run after editing an SVG: `npx tsx scripts/render-icons.ts` (set CHROMIUM_PATH if not /usr/bin/chromium).
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { chromium } from "playwright-core";

/** Each PNG of assets/: the SVG it is drawn from and its size in pixels. */
export const ICONS = [
  ...[16, 32, 64, 80, 128].map((size) => ({ file: `icon-${size}.png`, svg: "logo.svg", size })),
  { file: "color.png", svg: "logo.svg", size: 192 },
  { file: "outline.png", svg: "logo-outline.svg", size: 32 },
] as const;

async function main(): Promise<void> {
  const assets = path.resolve(__dirname, "..", "assets");
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" });
  try {
    const page = await browser.newPage({ deviceScaleFactor: 1 });
    for (const { file, svg, size } of ICONS) {
      await page.setViewportSize({ width: size, height: size });
      const source = readFileSync(path.join(assets, svg), "utf8");
      const sized = source.replace(/width="128" height="128"/, `width="${size}" height="${size}"`);
      await page.setContent(`<html><body style="margin:0;background:transparent">${sized}</body></html>`);
      const png = await page.screenshot({
        omitBackground: true,
        clip: { x: 0, y: 0, width: size, height: size },
      });
      writeFileSync(path.join(assets, file), png);
      console.log(`assets/${file}`);
    }
  } finally {
    await browser.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
