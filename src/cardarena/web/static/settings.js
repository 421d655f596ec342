// The owner's own settings on their player's page (docs/web.md, Accounts): change the password (the other
// sessions end) and delete the account (its games stay, anonymised). Both give the password again.

import {getJSON, toast} from "./dom.js";

const $ = (id) => document.getElementById(id);

/** Show and wire the settings (the page is the signed-in viewer's own). */
export function startSettings() {
  $("account-box").hidden = false;
  $("password-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      await getJSON("/api/accounts/password", {method: "POST", body: {current: $("password-current").value, new: $("password-new").value}});
      $("password-current").value = "";
      $("password-new").value = "";
      toast("The password is changed; your other browsers are signed out.", "info");
    } catch (error) {
      toast(error.message);
    }
  });
  $("delete-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!window.confirm("Delete your account for good? Your games stay, under the name \"Deleted player\".")) return;
    try {
      await getJSON("/api/accounts/delete", {method: "POST", body: {password: $("delete-password").value}});
      location.assign("/");
    } catch (error) {
      toast(error.message);
    }
  });
}
