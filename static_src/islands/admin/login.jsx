// /adminauth: username + password; 'Sign In' stays disabled until both are filled. With two-step sign-in
// on, the server answers 401 naming the field `code`: the form then asks for the app's code (or a recovery
// code) and sends the three together.
import { useEffect, useState } from "react";
import { api, ApiError, toast, userMessage } from "./components/api.js";
import { at } from "./components/strings.js";
import { flashToast } from "./shell.js";

const TOKEN_KEY = "adminSession";

export default function AdminLogin({ dashboardUrl }) {
  const [checking, setChecking] = useState(true);
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [askCode, setAskCode] = useState(false);
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");

  // An already signed-in staff member goes straight to the dashboard.
  useEffect(() => {
    api("/api/admin/verify")
      .then(() => window.location.assign(dashboardUrl))
      .catch(() => setChecking(false));
  }, []);

  if (checking) return <p className="admin-loading">{at("loading")}</p>;

  // A username of spaces is empty: the button waits for a real one and a password.
  const filled = username.trim() !== "" && password !== "" && (!askCode || code.trim() !== "");

  const submit = async (event) => {
    event.preventDefault();
    if (!filled) return;
    setBusy(true);
    setError("");
    try {
      const session = await api("/api/admin/login", {
        method: "POST", body: { username: username.trim(), password, ...(askCode ? { code: code.trim() } : {}) },
      });
      sessionStorage.setItem(
        TOKEN_KEY,
        JSON.stringify({ isAuthenticated: true, username: session.username, role: session.role, sessionToken: session.sessionToken }),
      );
      flashToast(at("welcomeToast"), "success");
      window.location.assign(dashboardUrl);
    } catch (err) {
      setBusy(false);
      if (err instanceof ApiError && err.status === 401 && err.field === "code") {
        // the password was right: the server's message asks for the code (or says it was wrong)
        setError(askCode ? userMessage(err, at("codeWrong")) : "");
        setAskCode(true);
        setCode("");
      } else if (err instanceof ApiError && err.status === 429) {
        setError(userMessage(err, at("lockedOut")));
        toast(userMessage(err, at("lockedOut")), "error");
      } else if (err instanceof ApiError && (err.status === 401 || err.status === 400)) {
        setError(at("invalidLogin"));
        toast(at("invalidCredentialsToast"), "error");
      } else {
        setError(at("loginFailed"));
        toast(at("loginFailed"), "error");
      }
    }
  };

  return (
    <form className="admin-login-form" onSubmit={submit} noValidate>
      {error && (
        <p className="alert alert--error" role="alert">
          {error}
        </p>
      )}
      <div className="field">
        <label htmlFor="admin-username">{at("username")}</label>
        <input id="admin-username" name="username" autoComplete="username" value={username} onChange={(e) => setUsername(e.target.value)} required />
      </div>
      <div className="field">
        <label htmlFor="admin-password">{at("password")}</label>
        <input
          id="admin-password"
          name="password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          required
        />
      </div>
      {askCode && (
        <div className="field">
          <label htmlFor="admin-code">{at("codeLabel")}</label>
          <input
            id="admin-code"
            name="code"
            dir="ltr"
            inputMode="numeric"
            autoComplete="one-time-code"
            aria-describedby="admin-code-hint"
            value={code}
            onChange={(e) => setCode(e.target.value)}
            autoFocus
            required
          />
          <p className="field__hint" id="admin-code-hint">{at("codeHint")}</p>
        </div>
      )}
      <button className="button admin-auth__submit" type="submit" disabled={!filled || busy}>
        {busy ? at("signingIn") : at("signIn")}
      </button>
    </form>
  );
}
