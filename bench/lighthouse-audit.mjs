// Run Lighthouse (mobile preset, the default) over several URLs in one Chromium, for bench/lighthouse.py
// and tests/browser/test_lighthouse.py. Reads a job as JSON on stdin:
//   {"chromeFlags": [...], "categories": [...], "fast": false, "cpuSlowdown": null,
//    "audits": [{"url": "...", "cookie": "a=b"}]}
// and prints one JSON line per audit: {url, scores: {category: 0-100}, cls, metrics: {audit id: ms},
// failed: [audit ids]}.
// "fast" drops the waits that only timing metrics need (the accessibility, best-practices and SEO
// audits look at the loaded page, not at how fast it came) and the full-page screenshot.
// "cpuSlowdown" replaces the mobile preset's CPU multiplier (4): a slower phone, or this machine on a fast day
// standing in for a slow one.
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { throttling } from "lighthouse/core/config/constants.js";

const job = JSON.parse(await new Promise((resolve) => {
  let text = "";
  process.stdin.on("data", (chunk) => { text += chunk; });
  process.stdin.on("end", () => resolve(text));
}));

const fastSettings = {
  pauseAfterFcpMs: 0, pauseAfterLoadMs: 300, networkQuietThresholdMs: 300, cpuQuietThresholdMs: 0,
  disableFullPageScreenshot: true, skipAboutBlank: true,
};

const chrome = await chromeLauncher.launch({ chromeFlags: job.chromeFlags });
try {
  for (const { url, cookie } of job.audits) {
    const flags = { port: chrome.port, output: "json", logLevel: "error", onlyCategories: job.categories };
    const settings = {
      onlyCategories: job.categories,
      ...(job.fast ? fastSettings : {}),
      ...(job.cpuSlowdown ? { throttling: { ...throttling.mobileSlow4G, cpuSlowdownMultiplier: job.cpuSlowdown } } : {}),
      ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}),
    };
    const { lhr } = await lighthouse(url, flags, { extends: "lighthouse:default", settings });
    const scores = {};
    const failed = [];
    for (const [name, category] of Object.entries(lhr.categories)) {
      scores[name] = Math.round((category.score ?? 0) * 100);
      for (const ref of category.auditRefs) {
        const audit = lhr.audits[ref.id];
        if (ref.weight > 0 && audit.score !== null && audit.score < 1) failed.push(`${ref.id}: ${audit.title}`);
      }
    }
    const cls = lhr.audits["cumulative-layout-shift"]?.numericValue ?? null;
    // the timing metrics behind the performance score, in ms (null when not audited)
    const metrics = {};
    for (const id of ["first-contentful-paint", "largest-contentful-paint", "total-blocking-time", "speed-index"]) {
      const value = lhr.audits[id]?.numericValue;
      metrics[id] = value === undefined ? null : Math.round(value);
    }
    const error = lhr.runtimeError?.message ?? null;
    process.stdout.write(`${JSON.stringify({ url, scores, cls, metrics, failed, error })}\n`);
  }
} finally {
  await chrome.kill();
}
