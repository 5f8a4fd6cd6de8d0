// Installing and offline (docs/desk.md): registers the service worker at /desk-sw.js, which
// keeps this page and its files so that it opens again without the service.  When a new
// version of the desk takes over an open page, a notice offers to reload it.  The page
// works the same without a worker (a browser without one, or an address that is not
// https nor localhost, where browsers refuse them).

if ("serviceWorker" in navigator) {
  // The first worker taking over a page opened without one changes nothing in it.
  let controlled = navigator.serviceWorker.controller !== null;
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    const replaced = controlled;
    controlled = true;
    if (!replaced || document.getElementById("new-version")) return;
    const notice = document.createElement("p");
    notice.id = "new-version";
    notice.className = "ok";
    notice.setAttribute("role", "status");
    const reload = document.createElement("button");
    reload.type = "button";
    reload.textContent = "Reload";
    reload.addEventListener("click", () => location.reload());
    notice.append("A new version of the desk is ready. ", reload);
    document.body.prepend(notice);
  });
  navigator.serviceWorker.register("/desk-sw.js", { scope: "/" }).catch(() => {
    // no worker: the page still works while the service answers
  });
}
