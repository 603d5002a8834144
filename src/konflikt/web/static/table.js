// konflikt's table page: one WebSocket, frames from the server, inputs sent back. Text only through textContent;
// the panel's HTML comes escaped from the server's templates.
//
// Every input goes over the socket with an id of its own and is kept until the server acknowledges it: a tap while
// the server is away is queued (the page says so) and sent once the socket is back; one sent but never
// acknowledged is sent again after a reconnect, and the server refuses a repeat (the id, and the step it was made
// at). A form is never posted by the browser itself, so a tap never lands on an error page of the browser's.
import { socketUrl } from "./socket_url.js";

const body = document.body;
const panel = document.getElementById("panel");
const log = document.getElementById("log");
const earlierButton = document.getElementById("earlier");
const errorBox = document.getElementById("error");
const connection = document.getElementById("connection");
const soundBox = document.getElementById("sound");
const LOG_PAGE = 50;
// The words this script shows, in the seat's language: rendered into the page by the server (the web catalog).
const TEXTS = JSON.parse(body.dataset.texts || "{}");
function say(key, fields = {}) {
  let text = TEXTS[key] || key;
  for (const [name, value] of Object.entries(fields)) text = text.split(`{${name}}`).join(value);
  return text;
}
const baseTitle = document.title;
let epoch = body.dataset.epoch || "";
let have = Number(body.dataset.have || 0);
let first = Number(body.dataset.first || 0);
let shownLimit = LOG_PAGE;
let socket = null;
let delay = 250;
let outbox = [];
const unacked = new Map();
let myTurn = false;

function showError(text) {
  errorBox.textContent = text || "";
  errorBox.hidden = !text;
}

function setConnection(text, down) {
  connection.textContent = text;
  connection.classList.toggle("down", down);
}

function updateEarlier() {
  if (earlierButton) earlierButton.hidden = first <= 0;
}

function trimLog() {
  while (log.children.length > shownLimit) {
    log.lastElementChild.remove();
    first += 1;
  }
  updateEarlier();
}

function addEvents(events, reset, from) {
  if (reset) {
    log.replaceChildren();
    have = from;
    first = from;
    shownLimit = LOG_PAGE;
  }
  for (const e of events) {
    const li = document.createElement("li");
    li.textContent = e.text;
    log.prepend(li);
  }
  have += events.length;
  log.start = have;
  trimLog();
}

async function loadEarlier() {
  if (!body.dataset.log || first <= 0) return;
  try {
    const response = await fetch(`${body.dataset.log}?before=${first}`, { headers: { accept: "application/json" } });
    const data = await response.json();
    if (!response.ok) { showError(data.error || say("earlier_failed")); return; }
    if (data.epoch !== epoch) return; // the log started over meanwhile: the next frame brings it
    for (const e of data.events.slice().reverse()) {
      const li = document.createElement("li");
      li.textContent = e.text;
      log.append(li);
    }
    shownLimit += data.events.length;
    first = data.first;
    updateEarlier();
  } catch (err) {
    showError(say("earlier_offline"));
  }
}

function turnCue() {
  const mine = Boolean(panel.querySelector("#choices, #my-roll, [data-turn]"));
  document.title = mine ? say("your_move", { title: baseTitle }) : baseTitle;
  if (mine && !myTurn) {
    if (navigator.vibrate && navigator.userActivation && navigator.userActivation.hasBeenActive) navigator.vibrate(200);
    if (soundBox && soundBox.checked) beep();
  }
  myTurn = mine;
}

let audio = null;
function beep() {
  try {
    audio = audio || new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.value = 0.08;
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.15);
  } catch (err) { /* no sound on this browser: the title and the vibration remain */ }
}

function acknowledge(id) {
  if (!id || !unacked.has(id)) return;
  for (const key of [...unacked.keys()]) { // in order: everything sent before it was handled before it
    unacked.delete(key);
    if (key === id) break;
  }
}

function onFrame(frame) {
  if (frame.type === "error") {
    acknowledge(frame.ack);
    showError(frame.message);
    for (const form of document.querySelectorAll("form[data-sent]")) delete form.dataset.sent; // may try again
    return;
  }
  if (frame.type === "reload") { location.reload(); return; } // this seat chose another language
  if (frame.type !== "frame") return;
  acknowledge(frame.ack);
  epoch = frame.epoch;
  panel.innerHTML = frame.html;
  addEvents(frame.events, frame.reset, frame.first || 0);
  body.dataset.step = String(frame.step);
  turnCue();
  if (!outbox.length && !unacked.size && errorBox.dataset.offline) { delete errorBox.dataset.offline; showError(""); }
}

function flush() {
  if (!socket || socket.readyState !== WebSocket.OPEN) return;
  while (outbox.length) {
    const message = outbox.shift();
    unacked.set(message.id, message);
    socket.send(JSON.stringify(message));
  }
}

function newId() {
  if (crypto.randomUUID) return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

function send(message) {
  message.id = newId();
  outbox.push(message);
  if (socket && socket.readyState === WebSocket.OPEN) {
    showError("");
    flush();
  } else {
    errorBox.dataset.offline = "1";
    showError(say("tap_kept"));
  }
}

function connect() {
  socket = new WebSocket(socketUrl(location, body.dataset.ws));
  socket.addEventListener("open", () => {
    delay = 250;
    setConnection(say("live"), false);
    socket.send(JSON.stringify({ type: "hello", epoch, have }));
    outbox = [...unacked.values(), ...outbox]; // sent but not acknowledged before the break: sent again
    unacked.clear();
    flush();
  });
  socket.addEventListener("message", (msg) => onFrame(JSON.parse(msg.data)));
  socket.addEventListener("close", () => {
    setConnection(say("reconnecting"), true);
    setTimeout(connect, delay);
    delay = Math.min(delay * 2, 4000);
  });
}

const NUMBERS = new Set(["step", "choice", "count", "value"]);

document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!body.dataset.ws || form.method.toLowerCase() !== "post" || "plain" in form.dataset) return; // the console's forms and the language menu post as usual
  event.preventDefault();
  if (form.dataset.sent) return; // a double tap: the first is on its way; the next frame redraws the form
  form.dataset.sent = "1";
  const data = new FormData(form, event.submitter);
  const message = {};
  for (const [key, value] of data.entries()) message[key] = NUMBERS.has(key) ? Number(value) : value;
  send(message);
});

if (earlierButton) earlierButton.addEventListener("click", loadEarlier);
if (soundBox) {
  soundBox.checked = localStorage.getItem("konflikt-sound") === "on";
  soundBox.addEventListener("change", () => {
    localStorage.setItem("konflikt-sound", soundBox.checked ? "on" : "off");
    if (soundBox.checked) beep(); // the tap that turns it on lets the browser play sound from now on
  });
}

// The console: a scenario file chosen is read into the text field it names (sent as a plain form).
for (const input of document.querySelectorAll("input[type=file][data-fills]")) {
  input.addEventListener("change", async () => {
    const file = input.files && input.files[0];
    const target = input.form && input.form.elements.namedItem(input.dataset.fills);
    if (file && target) target.value = await file.text();
  });
}

if (body.dataset.ws) {
  updateEarlier();
  turnCue();
  connect();
}
