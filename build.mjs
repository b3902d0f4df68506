// Bundle static_src/ into static/dist/ (main.js, main.css and lazy island chunks).
// Django's manifest storage fingerprints main.js/main.css; chunks carry esbuild's hash.
import * as esbuild from "esbuild";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { siteArt } from "./static_src/art/site-art.mjs";

const watch = process.argv.includes("--watch");
rmSync("static/dist", { recursive: true, force: true });

const options = {
  entryPoints: {
    main: "static_src/main.jsx",
    admin: "static_src/admin.jsx",
    // area styles, linked only by the pages that need them (keeps every page in budget)
    checkout: "static_src/css/checkout.css",
    cart: "static_src/css/cart.css", // after checkout.css, on the cart page only
    result: "static_src/css/result.css", // after checkout.css: payment return, thank-you, test payment
    storefront: "static_src/css/storefront.css",
    product: "static_src/css/product.css", // after storefront.css, on the product page only
    // loaded when first used (lib/styles.js): the gallery's lightbox, the sheet after Add to cart
    lightbox: "static_src/css/lightbox.css",
    "mini-cart": "static_src/css/mini-cart.css",
    track: "static_src/css/track.css",
    accounts: "static_src/css/accounts.css",
    // the dashboard's order print view (backoffice/print_views.py)
    print: "static_src/print.js",
    "search-list": "static_src/css/search-list.css",
    // the header search's, inlined after main.css by every page with the search (not checkout: base.html)
    search: "static_src/css/search.css",
  },
  outdir: "static/dist",
  bundle: true,
  splitting: true,
  format: "esm",
  minify: !watch,
  sourcemap: watch ? "inline" : false,
  target: ["es2020"],
  jsx: "automatic",
  chunkNames: "chunks/[name]-[hash]",
  loader: { ".svg": "text", ".woff2": "file" },
  // the brand fonts keep their names (Django's manifest storage fingerprints them), so the
  // <link rel=preload> in base.html can name the very files main.css uses
  assetNames: "fonts/[name]",
  define: { "process.env.NODE_ENV": watch ? '"development"' : '"production"' },
  legalComments: "none",
  metafile: true,
  logLevel: "info",
};

// the storefront's generated pictures (hero, About), served as static files
mkdirSync("static/dist/art", { recursive: true });
for (const [name, svg] of Object.entries(siteArt())) writeFileSync(`static/dist/art/${name}`, svg);

if (watch) {
  const ctx = await esbuild.context(options);
  await ctx.watch();
} else {
  await esbuild.build(options);
}
