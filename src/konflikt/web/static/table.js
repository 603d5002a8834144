// konflikt's table page: one WebSocket, frames from the server, choices sent back. Text only through textContent;
// the panel's HTML comes escaped from the server's templates.
const body = document.body;
const panel = document.getElementById("panel");
const log = document.getElementById("log");
const errorBox = document.getElementById("error");
const connection = document.getElementById("connection");
let epoch = body.dataset.epoch || "";
let have = Number(body.dataset.have || 0);
let socket = null;
let delay = 250;

function showError(text) {
  errorBox.textContent = text || "";
  errorBox.hidden = !text;
}

function addEvents(events, reset) {
  if (reset) { log.replaceChildren(); have = 0; }
  for (const e of events) {
    const li = document.createElement("li");
    li.textContent = e.text;
    log.prepend(li);
  }
  have += events.length;
}

function onFrame(frame) {
  if (frame.type === "error") { showError(frame.message); return; }
  if (frame.type !== "frame") return;
  epoch = frame.epoch;
  panel.innerHTML = frame.html;
  addEvents(frame.events, frame.reset);
  body.dataset.step = String(frame.step);
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(`${scheme}//${location.host}${body.dataset.ws}`);
  socket.addEventListener("open", () => {
    delay = 250;
    connection.textContent = "live";
    connection.classList.remove("down");
    socket.send(JSON.stringify({ type: "hello", epoch, have }));
  });
  socket.addEventListener("message", (msg) => onFrame(JSON.parse(msg.data)));
  socket.addEventListener("close", () => {
    connection.textContent = "reconnecting…";
    connection.classList.add("down");
    setTimeout(connect, delay);
    delay = Math.min(delay * 2, 4000);
  });
}

const NUMBERS = new Set(["step", "choice", "count", "value"]);

document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!socket || socket.readyState !== WebSocket.OPEN || form.method.toLowerCase() !== "post") return;
  event.preventDefault();
  const data = new FormData(form, event.submitter);
  const message = {};
  for (const [key, value] of data.entries()) message[key] = NUMBERS.has(key) ? Number(value) : value;
  showError("");
  socket.send(JSON.stringify(message));
});

// The console: a scenario file chosen is read into the text field it names (sent as a plain form).
for (const input of document.querySelectorAll("input[type=file][data-fills]")) {
  input.addEventListener("change", async () => {
    const file = input.files && input.files[0];
    const target = input.form && input.form.elements.namedItem(input.dataset.fills);
    if (file && target) target.value = await file.text();
  });
}

if (body.dataset.ws) connect();
