// Runs a Python driver under real MicroPython (the WebAssembly port, npm package
// @micropython/micropython-webassembly-pyscript) with the display firmware's files.
// usage: node micropython_run.mjs MICROPYTHON_MJS FIRMWARE_DIR DRIVER.py INPUT_FILE
import fs from "fs";
import { pathToFileURL } from "url";

const [, , mjs, dir, driver, input] = process.argv;
const { loadMicroPython } = await import(pathToFileURL(mjs).href);
const out = [];
const mp = await loadMicroPython({
  stdout: (s) => out.push(s),
  stderr: (s) => process.stderr.write(s + "\n"),
});
for (const f of ["frames.py", "segments.py", "display.py"]) {
  mp.FS.writeFile("/" + f, fs.readFileSync(dir + "/" + f));
}
mp.FS.writeFile("/input.bin", fs.readFileSync(input));
mp.runPython(fs.readFileSync(driver, "utf8"));
process.stdout.write(out.join("\n") + "\n");
