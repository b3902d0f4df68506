// Small enhancements for the account forms, which work without JavaScript:
// show/hide password, the strength meter, 'Passwords match', clearing a
// field's error on edit, the terms box checked before a filled form goes, and the
// 'Signing in...' / 'Creating Account...' button.
import { addStrings, initI18n, t } from "../lib/i18n.js";
import en from "../i18n/en/accounts.json";
import ar from "../i18n/ar/accounts.json";

// Spec 5: one point each for length >= 8, upper case, lower case, digit, other.
export function passwordScore(password) {
  return [/.{8,}/s, /[A-Z]/, /[a-z]/, /\d/, /[^A-Za-z0-9]/].filter((rule) => rule.test(password)).length;
}

export function strengthLevel(score) {
  if (score < 2) return "weak";
  if (score < 4) return "medium";
  return "strong";
}

function initToggles(form) {
  for (const button of form.querySelectorAll("[data-password-toggle]")) {
    const input = document.getElementById(button.dataset.passwordToggle);
    if (!input) continue;
    const render = () => {
      const shown = input.type === "text";
      button.textContent = shown ? t("accounts:hide") : t("accounts:show");
      button.setAttribute("aria-label", shown ? t("accounts:hidePassword") : t("accounts:showPassword"));
      button.setAttribute("aria-pressed", String(shown));
    };
    button.addEventListener("click", () => {
      input.type = input.type === "password" ? "text" : "password";
      render();
      input.focus();
    });
    render();
    button.hidden = false;
  }
}

function initStrength(form) {
  for (const meter of form.querySelectorAll("[data-strength-for]")) {
    const input = document.getElementById(meter.dataset.strengthFor);
    if (!input) continue;
    const label = meter.querySelector(".pw-strength__label");
    const update = () => {
      meter.hidden = !input.value;
      const score = passwordScore(input.value);
      const level = strengthLevel(score);
      meter.dataset.level = level;
      meter.style.setProperty("--score", score);
      label.textContent = t("accounts:strength", { level: t(`accounts:${level}`) });
    };
    input.addEventListener("input", update);
    update();
  }
}

function initMatch(form) {
  for (const note of form.querySelectorAll("[data-match-for]")) {
    const [first, second] = note.dataset.matchFor.split(" ").map((id) => document.getElementById(id));
    if (!first || !second) continue;
    const update = () => {
      note.hidden = !second.value;
      const same = first.value === second.value;
      note.dataset.match = String(same);
      note.textContent = same ? `✓ ${t("accounts:passwordsMatch")}` : t("accounts:passwordsDoNotMatch");
    };
    first.addEventListener("input", update);
    second.addEventListener("input", update);
    update();
  }
}

// A field's error goes away as soon as the shopper edits that field (spec 5).
function initErrorClearing(form) {
  form.addEventListener("input", (event) => {
    const field = event.target.closest("[data-field]");
    if (!field || !field.classList.contains("field--error")) return;
    field.classList.remove("field--error");
    field.querySelector(".field__error")?.setAttribute("hidden", "");
    event.target.removeAttribute("aria-invalid");
  });
}

// Spec: the terms are agreed to in the browser. A form whose every required field is filled and whose one
// fault is the unticked box is held here: sent, it would come back with both passwords to type again (the
// server never sends them back). With other fields empty it goes, and the server names every fault at once.
function initTermsCheck(form) {
  const box = form.querySelector("input[name=agreeToTerms]");
  if (!box) return;
  form.addEventListener("submit", (event) => {
    const filled = [...form.querySelectorAll("input[required]")].every((input) => input.value.trim());
    if (box.checked || !filled) return;
    event.preventDefault();
    event.stopImmediatePropagation(); // the button is not turned into 'Creating Account...'
    const field = box.closest("[data-field]");
    const error = field.querySelector(".field__error");
    field.classList.add("field--error");
    error.textContent = t("accounts:agreeToTerms");
    error.hidden = false;
    box.setAttribute("aria-invalid", "true");
    box.setAttribute("aria-describedby", `agree_links ${error.id}`);
    box.focus();
  });
}

function initSubmitting(form) {
  const button = form.querySelector('button[type="submit"]');
  if (!button || !form.dataset.submitting) return;
  const idle = button.textContent;
  form.addEventListener("submit", () => {
    // disabled after the event, so the browser still sends the form
    setTimeout(() => {
      button.disabled = true;
      button.setAttribute("aria-busy", "true");
      button.textContent = form.dataset.submitting;
    });
  });
  // coming back with the back button shows the idle button again
  window.addEventListener("pageshow", () => {
    button.disabled = false;
    button.removeAttribute("aria-busy");
    button.textContent = idle;
  });
}

export async function initAccountForms(root = document) {
  // a form sent back with a problem (the page reloaded, focus at its start): focus goes to the first field
  // at fault, so that a screen reader reads its label and the message tied to it (aria-describedby);
  // a problem with the form as a whole (a wrong password) has only its banner, which then takes focus
  (root.querySelector("main form [aria-invalid='true']") ?? root.querySelector("main [data-form-error]"))?.focus();
  const forms = root.querySelectorAll("form[data-account-form]");
  if (!forms.length) return;
  await initI18n(document.documentElement.lang || "en");
  addStrings("accounts", { en, ar });
  for (const form of forms) {
    initToggles(form);
    initStrength(form);
    initMatch(form);
    initErrorClearing(form);
    initTermsCheck(form); // before initSubmitting: it may stop the submit
    initSubmitting(form);
    form.dataset.enhanced = "true";
  }
}
