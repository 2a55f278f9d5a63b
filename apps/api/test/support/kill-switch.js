// Preloaded (`node -r`) into the built API by the crash tests: kills the process with SIGKILL at an
// exact point of a settlement, as a power cut or the OOM killer would. The point is read from the file
// named by TALELOOM_KILL_FILE each time (so a running process can be armed), and the file is removed
// before the kill (so the restarted process runs normally). Points:
//   settle                  the stream has ended and its text is stored; no power has moved yet
//   <step>:<entry kind>     a ledger step (see FaultStep in src/power/ledger.repository.ts), e.g.
//                           entry-created:settle, user-updated:settle, entry-marked:settle
//   branch:<step>           a step of a change of branch (see BranchStep in src/branches/branch-moves.ts),
//                           e.g. branch:parked, branch:flipped
'use strict';
require('reflect-metadata');
const { readFileSync, rmSync } = require('node:fs');
const { join } = require('node:path');

const file = process.env.TALELOOM_KILL_FILE;
if (file) {
  const dist = join(__dirname, '..', '..', 'dist');
  const armedAt = () => {
    try {
      return readFileSync(file, 'utf8').trim();
    } catch {
      return '';
    }
  };
  const killIf = (point) => {
    if (armedAt() !== point) return;
    rmSync(file, { force: true });
    process.kill(process.pid, 'SIGKILL');
  };
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
  const { PowerService } = require(join(dist, 'power', 'power.service.js'));
  const settle = PowerService.prototype.settle;
  PowerService.prototype.settle = function (...args) {
    killIf('settle');
    return settle.apply(this, args);
  };
}
