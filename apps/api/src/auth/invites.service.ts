import { Injectable } from '@nestjs/common';
import { ErrorCode } from '@taleloom/contracts';
import { randomInt } from 'node:crypto';
import { Types } from 'mongoose';
import { AppException } from '../common/app-exception';
import { UserRepository } from '../users/user.repository';

// No look-alikes (0/o, 1/l/i): the code is read off screens and typed by hand.
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const LENGTH = 8;

/** Each user's stable short invite code, and who a code belongs to. */
@Injectable()
export class InvitesService {
  constructor(private readonly users: UserRepository) {}

  /** The inviter of a non-empty code; INVITE_CODE_INVALID when nobody has it. Empty: null. */
  async resolve(code: string | undefined): Promise<Types.ObjectId | null> {
    const normalized = code?.trim().toLowerCase();
    if (!normalized) return null;
    if (!/^[a-z0-9]{4,32}$/.test(normalized)) throw new AppException(ErrorCode.INVITE_CODE_INVALID);
    const inviter = await this.users.idByInviteCode(normalized);
    if (!inviter) throw new AppException(ErrorCode.INVITE_CODE_INVALID);
    return inviter;
  }

  /** The user's code, made on first call; concurrent first calls agree on one. */
  async codeOf(userID: string): Promise<string> {
    const _id = new Types.ObjectId(userID);
    for (let attempt = 0; attempt < 5; attempt++) {
      const current = await this.users.inviteCodeOf(_id);
      if (current === undefined) throw new AppException(ErrorCode.USER_NOT_FOUND);
      if (current) return current;
      const candidate = Array.from({ length: LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
      // The unique index protects production; the pre-check keeps the stand-in honest too.
      if (await this.users.inviteCodeTaken(candidate)) continue;
      await this.users.setInviteCodeIfNone(_id, candidate);
    }
    throw new AppException(ErrorCode.INTERNAL_ERROR);
  }
}
