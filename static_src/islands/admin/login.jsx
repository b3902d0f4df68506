// /adminauth: username + password; 'Sign In' stays disabled until both are filled.
import { useEffect, useState } from "react";
import { api, ApiError, toast, userMessage } from "./components/api.js";
import { at } from "./components/strings.js";
import { flashToast } from "./shell.js";

const TOKEN_KEY = "adminSession";

export default function AdminLogin({ dashboardUrl }) {
  const [checking, setChecking] = useState(true);
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");

  // An already signed-in staff member goes straight to the dashboard.
  useEffect(() => {
    api("/api/admin/verify")
      .then(() => window.location.assign(dashboardUrl))
      .catch(() => setChecking(false));
  }, []);

  if (checking) return <p className="admin-loading">{at("loading")}</p>;

  const submit = async (event) => {
    event.preventDefault();
    if (!username || !password) return;
    setBusy(true);
    setError("");
    try {
      const session = await api("/api/admin/login", { method: "POST", body: { username, password } });
      sessionStorage.setItem(
        TOKEN_KEY,
        JSON.stringify({ isAuthenticated: true, username: session.username, role: session.role, sessionToken: session.sessionToken }),
      );
      flashToast(at("welcomeToast"), "success");
      window.location.assign(dashboardUrl);
    } catch (err) {
      setBusy(false);
      if (err instanceof ApiError && err.status === 429) {
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
      <button className="button admin-auth__submit" type="submit" disabled={!username || !password || busy}>
        {busy ? at("signingIn") : at("signIn")}
      </button>
    </form>
  );
}
