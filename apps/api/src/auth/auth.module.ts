import { Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { createSecretKey } from 'node:crypto';
import { MongooseModule } from '@nestjs/mongoose';
import { PassportModule } from '@nestjs/passport';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { User, UserSchema } from '../users/user.schema';
import { AuthService } from './auth.service';
import { JwtAuthGuard } from '../common/jwt-auth.guard';
import { JwtStrategy } from './jwt.strategy';
import { OptionalJwtAuthGuard } from '../common/optional-jwt-auth.guard';
import { TokenUsers } from './token-users';

@Module({
  imports: [
    PassportModule,
    MongooseModule.forFeature([{ name: User.name, schema: UserSchema }]),
    JwtModule.registerAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        // A KeyObject: a string is first tried as a PEM private key on every signing (see JwtStrategy).
        secret: createSecretKey(Buffer.from(config.jwtSecret)),
        signOptions: { algorithm: 'HS256', expiresIn: expiresIn(config.env.JWT_EXPIRES_IN) },
      }),
    }),
  ],
  providers: [AuthService, TokenUsers, JwtStrategy, JwtAuthGuard, OptionalJwtAuthGuard],
  exports: [AuthService, TokenUsers, JwtAuthGuard, OptionalJwtAuthGuard],
})
export class AuthModule {}

function expiresIn(value: string): number {
  const match = /^(\d+)([smhd]?)$/.exec(value)!;
  const unit = { '': 1, s: 1, m: 60, h: 3600, d: 86400 }[match[2] as '' | 's' | 'm' | 'h' | 'd'];
  return Number(match[1]) * unit;
}
