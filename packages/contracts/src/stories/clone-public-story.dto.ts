import { IsString, MaxLength } from 'class-validator';
import { LocalizedDto } from '../common/localized.dto';

/** `POST /api/user/clone-public-story`: copy someone's public story into the caller's list. */
export class ClonePublicStoryDto extends LocalizedDto {
  /** The story's owner, as `check-story` answered it in `originUserID`. */
  @IsString()
  @MaxLength(64)
  userID!: string;

  @IsString()
  @MaxLength(64)
  storyID!: string;
}
