import 'reflect-metadata';
import { config as loadDotenv } from 'dotenv';
import mongoose from 'mongoose';
import { resolve } from 'node:path';
import { parsePinArgs, pinStory } from './pin-story';

// Operator command: pin or unpin a story of the square by its number (there is no admin UI).
async function main(): Promise<number> {
  loadDotenv({ path: [resolve(process.cwd(), '.env'), resolve(__dirname, '..', '..', '..', '..', '.env')], quiet: true });
  const args = parsePinArgs(process.argv.slice(2));
  if ('error' in args) {
    console.error(args.error);
    return 2;
  }
  const uri = process.env.MONGODB_URI;
  if (!uri) {
    console.error('MONGODB_URI is not set: point it at the database the API uses.');
    return 2;
  }
  const connection = await mongoose.createConnection(uri, { serverSelectionTimeoutMS: 5000 }).asPromise();
  try {
    const result = await pinStory(connection, args);
    if (!result) {
      console.error(`No story has the number ${args.storyNo}.`);
      return 1;
    }
    const name = result.name || '(untitled)';
    const visibility = result.permission === '1' ? 'public' : 'private, so not in the square until published';
    console.log(`Story S${result.storyNo} "${name}" is now ${result.pinToTop ? 'pinned' : 'unpinned'} (${visibility}).`);
    return 0;
  } finally {
    await connection.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
