// Bundle static_src/ into static/dist/ (main.js, main.css and lazy island chunks).
// Django's manifest storage fingerprints main.js/main.css; chunks carry esbuild's hash.
import * as esbuild from "esbuild";
import { rmSync } from "node:fs";

const watch = process.argv.includes("--watch");
rmSync("static/dist", { recursive: true, force: true });

const options = {
  entryPoints: {
    main: "static_src/main.jsx",
    admin: "static_src/admin.jsx",
    // area styles, linked only by the pages that need them (keeps every page in budget)
    checkout: "static_src/css/checkout.css",
    accounts: "static_src/css/accounts.css",
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
  loader: { ".svg": "text" },
  define: { "process.env.NODE_ENV": watch ? '"development"' : '"production"' },
  legalComments: "none",
  metafile: true,
  logLevel: "info",
};

if (watch) {
  const ctx = await esbuild.context(options);
  await ctx.watch();
} else {
  await esbuild.build(options);
}
