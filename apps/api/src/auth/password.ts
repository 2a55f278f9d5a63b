import { hash } from '@node-rs/argon2';

// argon2id with the library's recommended defaults (19 MiB, 2 passes).
export const hashPassword = (password: string) => hash(password);
