// Renders assets/logo.svg to the PNG sizes Office asks for (ribbon 16/32/80, IconUrl 32,
// HighResolutionIconUrl 64, store listing 128) with the system Chromium, keeping transparency.
// Run after editing the SVG: `npx tsx scripts/render-icons.ts` (set CHROMIUM_PATH if not /usr/bin/chromium).
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { chromium } from "playwright-core";

export const ICON_SIZES = [16, 32, 64, 80, 128] as const;

async function main(): Promise<void> {
  const assets = path.resolve(__dirname, "..", "assets");
  const svg = readFileSync(path.join(assets, "logo.svg"), "utf8");
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" });
  try {
    const page = await browser.newPage({ deviceScaleFactor: 1 });
    for (const size of ICON_SIZES) {
      await page.setViewportSize({ width: size, height: size });
      const sized = svg.replace(/width="128" height="128"/, `width="${size}" height="${size}"`);
      await page.setContent(`<html><body style="margin:0;background:transparent">${sized}</body></html>`);
      const png = await page.screenshot({
        omitBackground: true,
        clip: { x: 0, y: 0, width: size, height: size },
      });
      writeFileSync(path.join(assets, `icon-${size}.png`), png);
      console.log(`assets/icon-${size}.png`);
    }
  } finally {
    await browser.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
