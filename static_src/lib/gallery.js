// The product gallery without React: thumbnails scroll the pictures into view, and each picture
// opens a lightbox (<dialog>: focus stays inside, Esc closes, focus goes back to the picture).
// Zoom doubles the picture inside a scrollable stage. Arrow keys follow the reading direction.
import { loadStylesheet } from "./styles.js";

export function initGallery(gallery) {
  const slides = [...gallery.querySelectorAll("[data-lightbox]")];
  const thumbs = [...gallery.querySelectorAll("[data-gallery-thumb]")];
  const dialog = gallery.querySelector("[data-lightbox-dialog]");
  if (!slides.length || !dialog) return;
  const image = dialog.querySelector("[data-lightbox-img]");
  const stage = dialog.querySelector("[data-lightbox-stage]");
  const zoom = dialog.querySelector("[data-lightbox-zoom]");
  const count = dialog.querySelector("[data-lightbox-count]");
  let index = 0;
  let opener = null;

  const markThumb = (i) => thumbs.forEach((thumb, n) => thumb.setAttribute("aria-current", String(n === i)));
  const setZoom = (on) => {
    stage.classList.toggle("is-zoomed", on);
    zoom.setAttribute("aria-pressed", String(on));
    // zoom into the middle of the picture (scrollLeft runs negative in right-to-left pages)
    const rtl = document.documentElement.dir === "rtl";
    if (on) stage.scrollTo((stage.scrollWidth - stage.clientWidth) / (rtl ? -2 : 2), (stage.scrollHeight - stage.clientHeight) / 2);
  };
  const show = (i) => {
    index = (i + slides.length) % slides.length;
    const picture = slides[index].querySelector("img");
    image.src = slides[index].href;
    image.alt = picture.alt;
    count.textContent = slides.length > 1 ? `${index + 1} / ${slides.length}` : "";
    setZoom(false);
  };

  // swiping the pictures moves the thumbnails' mark along
  const track = slides[0].parentElement;
  track.addEventListener("scroll", () => markThumb(Math.round(Math.abs(track.scrollLeft) / track.clientWidth)), { passive: true });
  thumbs.forEach((thumb, i) =>
    thumb.addEventListener("click", (event) => {
      event.preventDefault();
      slides[i].scrollIntoView({ behavior: "smooth", block: "nearest", inline: "start" });
      markThumb(i);
    }),
  );
  slides.forEach((slide, i) =>
    slide.addEventListener("click", (event) => {
      event.preventDefault();
      opener = slide;
      show(i);
      dialog.showModal();
    }),
  );
  dialog.querySelector("[data-lightbox-close]").addEventListener("click", () => dialog.close());
  zoom.addEventListener("click", () => setZoom(!stage.classList.contains("is-zoomed")));
  image.addEventListener("click", () => setZoom(!stage.classList.contains("is-zoomed")));
  dialog.querySelectorAll("[data-lightbox-step]").forEach((button) =>
    button.addEventListener("click", () => show(index + Number(button.dataset.lightboxStep))),
  );
  // a click on the dimmed area around the content closes, as Esc does
  dialog.addEventListener("click", (event) => event.target === dialog && dialog.close());
  dialog.addEventListener("keydown", (event) => {
    if (event.key === "Tab") {
      // focus goes round inside the lightbox instead of leaving for the browser's own controls
      const stops = [...dialog.querySelectorAll("button")];
      const edge = event.shiftKey ? stops[0] : stops[stops.length - 1];
      if (document.activeElement === edge) {
        event.preventDefault();
        (event.shiftKey ? stops[stops.length - 1] : stops[0]).focus();
      }
      return;
    }
    const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
    if (!step || slides.length < 2 || stage.classList.contains("is-zoomed")) return;
    event.preventDefault();
    show(index + (document.documentElement.dir === "rtl" ? -step : step));
  });
  dialog.addEventListener("close", () => {
    setZoom(false);
    opener?.focus();
  });
  gallery.dataset.galleryReady = "true";
}

export function initGalleries() {
  const galleries = [...document.querySelectorAll("[data-gallery]")];
  galleries.forEach(initGallery);
  return Promise.all(galleries.map((gallery) => loadStylesheet(gallery.dataset.styles)));
}
