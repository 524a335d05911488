// The site's only script besides htmx: small conveniences, kept out of the HTML so the
// Content-Security-Policy can forbid inline scripts.
document.addEventListener("click", (event) => {
  const target = event.target;
  if (!(target instanceof Element)) return;
  if (target.matches("[data-select-all]")) target.select();
  if (target.closest("[data-print]")) window.print();
});
