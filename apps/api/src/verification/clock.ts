import { Injectable } from '@nestjs/common';

/** The time codes, captchas, limits and lockouts see; tests move it forward instead of waiting. */
@Injectable()
export class Clock {
  private offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  /** Test-only: moves this clock forward. */
  advance(ms: number): void {
    this.offsetMs += ms;
  }

  /** Test-only: back to real time. */
  reset(): void {
    this.offsetMs = 0;
  }
}
