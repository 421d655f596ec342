// The lobby's account bar (docs/web.md, Accounts): sign in, register, sign out. Signed in, "Your games"
// (mine.js) lists the account's games in progress too, each a link to its seat's page (/play/KEY#account), which
// opens from any browser signed in. The session is the server's HttpOnly cookie: this page never sees it; getJSON
// keeps the CSRF token the answers give.

import {getJSON, setCsrf, toast} from "./dom.js";
import {setSignedIn} from "./mine.js";

const $ = (id) => document.getElementById(id);

let named = () => {};

/** Show who is signed in (or the sign-in form); ``onName(name)`` is told the account's name when signed in. */
export async function startAccountBar(onName) {
  named = onName;
  $("account-form").addEventListener("submit", (event) => {
    event.preventDefault();
    submit("signin");
  });
  $("register").addEventListener("click", () => submit("register"));
  $("sign-out").addEventListener("click", signOut);
  let me = {account: null};
  try {
    me = await getJSON("/api/accounts/me");
  } catch (error) {
    toast(`Could not ask who is signed in: ${error.message}`);
  }
  show(me);
}

async function submit(route) {
  const name = $("account-user").value.trim();
  const password = $("account-password").value;
  if (!name || !password) {
    toast("Give the account's name and password.");
    return;
  }
  try {
    const me = await getJSON(`/api/accounts/${route}`, {method: "POST", body: {name, password}});
    $("account-password").value = "";
    show(me);
    toast(route === "register" ? `Welcome, ${me.account.name}: your account is made.` : `Signed in as ${me.account.name}.`, "info");
  } catch (error) {
    toast(error.message);
  }
}

async function signOut() {
  try {
    await getJSON("/api/accounts/signout", {method: "POST"});
  } catch (error) {
    toast(error.message);
    return;
  }
  setCsrf(null);
  show({account: null});
}

function show(me) {
  const account = me && me.account;
  $("account-form").hidden = Boolean(account);
  $("account-signed").hidden = !account;
  setSignedIn(Boolean(account));
  const rated = $("rated-field");  // a rated game is for people signed in
  if (rated) rated.hidden = !account;
  if (rated && !account) $("rated").checked = false;
  if (account) {
    $("account-name").textContent = account.name;
    $("account-name").href = `/players/${encodeURIComponent(account.name)}`;
    named(account.name);
  }
}
