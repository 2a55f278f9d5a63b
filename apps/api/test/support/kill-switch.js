// Preloaded (`node -r`) into the built API by the crash tests: kills the process with SIGKILL at an
// exact point of a settlement, as a power cut or the OOM killer would. The point is read from the file
// named by TALELOOM_KILL_FILE each time (so a running process can be armed), and the file is removed
// before the kill (so the restarted process runs normally). Points:
//   settle                  the stream has ended and its text is stored; no power has moved yet
//   <step>:<entry kind>     a ledger step (see FaultStep in src/power/ledger.repository.ts), e.g.
//                           entry-created:settle, user-updated:settle, entry-marked:settle
//   branch:<step>           a step of a change of branch (see BranchStep in src/branches/branch-moves.ts),
//                           e.g. branch:parked, branch:flipped
//   spread:<step>           a step of a clone or of a turn's credit to its sources (see SpreadStep in
//                           src/stories/story-spread.service.ts), e.g. spread:cloned, spread:sources-credited
//   stand-in-thread         the embedded stand-in's thread ends on its own (as an error in it would),
//                           whatever the app is doing: the file is looked at every 50 ms
'use strict';
require('reflect-metadata');
const { readFileSync, rmSync } = require('node:fs');
const { join } = require('node:path');

const threads = require('node:worker_threads');

const file = process.env.TALELOOM_KILL_FILE;
// The app's own threads (the stand-in, pictures, exports) inherit `-r` and load this too: only the main
// thread reads the file, or a thread could take a point meant for it and remove the file.
if (file && threads.isMainThread) {
  const dist = join(__dirname, '..', '..', 'dist');
  const armedAt = () => {
    try {
      return readFileSync(file, 'utf8').trim();
    } catch {
      return '';
    }
  };
  // True (and the file removed, so a restarted process runs normally) when armed at this point.
  const taken = (point) => {
    if (armedAt() !== point) return false;
    rmSync(file, { force: true });
    return true;
  };
  const killIf = (point) => {
    if (taken(point)) process.kill(process.pid, 'SIGKILL');
  };
  // Before the app loads: its stand-in thread is made through this class (startStandIn in embedded-database.ts).
  const standIns = [];
  threads.Worker = class extends threads.Worker {
    constructor(filename, options) {
      super(filename, options);
      if (String(filename).includes('stand-in.worker')) standIns.push(this);
    }
  };
  setInterval(() => {
    if (taken('stand-in-thread')) for (const thread of standIns) void thread.terminate();
  }, 50).unref();
  const { LedgerRepository } = require(join(dist, 'power', 'ledger.repository.js'));
  const fault = LedgerRepository.prototype.fault;
  LedgerRepository.prototype.fault = function (step, entry) {
    killIf(`${step}:${entry.kind}`);
    return fault.call(this, step, entry);
  };
  const { BranchMoves } = require(join(dist, 'branches', 'branch-moves.js'));
  const step = BranchMoves.prototype.fault;
  BranchMoves.prototype.fault = function (name) {
    killIf(`branch:${name}`);
    return step.call(this, name);
  };
  const { StorySpreadService } = require(join(dist, 'stories', 'story-spread.service.js'));
  const spreadStep = StorySpreadService.prototype.fault;
  StorySpreadService.prototype.fault = function (name) {
    killIf(`spread:${name}`);
    return spreadStep.call(this, name);
  };
  const { PowerService } = require(join(dist, 'power', 'power.service.js'));
  const settle = PowerService.prototype.settle;
  PowerService.prototype.settle = function (...args) {
    killIf('settle');
    return settle.apply(this, args);
  };
}
