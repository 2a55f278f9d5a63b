import type { INestApplication, Type } from '@nestjs/common';
import { GUARDS_METADATA, METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RequestMethod } from '@nestjs/common/enums/request-method.enum';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { DiscoveryService, MetadataScanner, ModulesContainer } from '@nestjs/core';
import { JwtAuthGuard } from '../../src/common/jwt-auth.guard';
import { OptionalJwtAuthGuard } from '../../src/common/optional-jwt-auth.guard';

/**
 * Every endpoint the app serves, read at test time from the Express router (what is really routed)
 * and joined with Nest's metadata (handler, guard, body/query DTO classes). Security suites iterate
 * over this list, so a new endpoint is covered (or makes a suite fail) without anyone listing it.
 */
export interface RouteInfo {
  /** `GET /api/llm/:id`: the key used by the security tables. */
  key: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Express path with `:params`, e.g. `/api/llm/:id`. */
  path: string;
  /** Names of the path parameters. */
  params: string[];
  /** `jwt`: a valid token is required; `optional`: a token is read when sent; `none`: public. */
  auth: 'jwt' | 'optional' | 'none';
  bodyDto?: Type<object>;
  queryDto?: Type<object>;
  /** True when the handler reads a multipart upload instead of a JSON body. */
  upload: boolean;
  controller: string;
  handler: string;
}

// Framework routes that are not the product's API: the Swagger UI and document.
const FRAMEWORK_ROUTES = /^\/api\/docs(\/|-json$|-yaml$|$)/;

interface ExpressLayer {
  route?: { path: string; methods: Record<string, boolean> };
}

/** Method + path of every route in the Express router of the app (framework routes left out). */
export function routerRoutes(app: INestApplication): { method: string; path: string }[] {
  return stackRoutes(app).filter((r) => !FRAMEWORK_ROUTES.test(r.path));
}

/** The framework's own routes in the router (the Swagger UI and document), which `routerRoutes` leaves out. */
export function frameworkRoutes(app: INestApplication): { method: string; path: string }[] {
  return stackRoutes(app).filter((r) => FRAMEWORK_ROUTES.test(r.path));
}

function stackRoutes(app: INestApplication): { method: string; path: string }[] {
  const express = app.getHttpAdapter().getInstance() as { router?: { stack: ExpressLayer[] }; _router?: { stack: ExpressLayer[] } };
  const stack = (express.router ?? express._router)?.stack ?? [];
  const routes: { method: string; path: string }[] = [];
  for (const layer of stack) {
    if (!layer.route || typeof layer.route.path !== 'string') continue;
    const methods = Object.keys(layer.route.methods).filter((m) => layer.route!.methods[m]);
    // Nest's catch-all not-found handlers answer every method: they are not endpoints.
    if (methods.length > 5) continue;
    for (const m of methods) routes.push({ method: m.toUpperCase(), path: layer.route.path });
  }
  return routes;
}

const joinPath = (...parts: string[]) =>
  `/${parts
    .flatMap((p) => p.split('/'))
    .filter(Boolean)
    .join('/')}`;

/** Nest's view of every handler: method, full path, guard and parameter DTOs. */
function nestHandlers(app: INestApplication): Map<string, Omit<RouteInfo, 'key'>> {
  const discovery = new DiscoveryService(app.get(ModulesContainer));
  const scanner = new MetadataScanner();
  const handlers = new Map<string, Omit<RouteInfo, 'key'>>();
  for (const wrapper of discovery.getControllers()) {
    const controller = wrapper.metatype as Type<object> | null;
    if (!controller || !wrapper.instance) continue;
    const base = ([] as string[]).concat(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
    const classGuards: unknown[] = Reflect.getMetadata(GUARDS_METADATA, controller) ?? [];
    const proto = Object.getPrototypeOf(wrapper.instance) as object;
    for (const name of scanner.getAllMethodNames(proto)) {
      const fn = (proto as Record<string, unknown>)[name] as object;
      const sub = Reflect.getMetadata(PATH_METADATA, fn) as string | string[] | undefined;
      if (sub === undefined) continue;
      const requestMethod = RequestMethod[Reflect.getMetadata(METHOD_METADATA, fn) as RequestMethod] as RouteInfo['method'];
      const guards = [...classGuards, ...((Reflect.getMetadata(GUARDS_METADATA, fn) as unknown[]) ?? [])];
      const auth = guards.includes(JwtAuthGuard) ? 'jwt' : guards.includes(OptionalJwtAuthGuard) ? 'optional' : 'none';
      const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {}) as Record<string, { index: number; data?: unknown }>;
      const types = (Reflect.getMetadata('design:paramtypes', proto, name) ?? []) as Type<object>[];
      const dtoOf = (kind: RouteParamtypes): Type<object> | undefined => {
        const entry = Object.entries(args).find(([k, v]) => k.split(':')[0] === String(kind) && v.data === undefined);
        const type = entry ? types[entry[1].index] : undefined;
        return type && type !== Object ? type : undefined;
      };
      const upload = Object.keys(args).some((k) => k.split(':')[0] === String(RouteParamtypes.FILE));
      for (const b of base) {
        for (const s of ([] as string[]).concat(sub)) {
          const path = joinPath('api', b, s);
          handlers.set(`${requestMethod} ${path}`, {
            method: requestMethod,
            path,
            params: [...path.matchAll(/:(\w+)/g)].map((m) => m[1]),
            auth,
            bodyDto: dtoOf(RouteParamtypes.BODY),
            queryDto: dtoOf(RouteParamtypes.QUERY),
            upload,
            controller: controller.name,
            handler: name,
          });
        }
      }
    }
  }
  return handlers;
}

/**
 * The product's endpoints. Throws when the router serves a route Nest does not know (or the other way
 * round), so the inventory cannot silently miss one.
 */
export function routeInventory(app: INestApplication): RouteInfo[] {
  const handlers = nestHandlers(app);
  const served = routerRoutes(app).map((r) => `${r.method} ${r.path}`);
  const unknown = served.filter((k) => !handlers.has(k));
  const unserved = [...handlers.keys()].filter((k) => !served.includes(k));
  if (unknown.length || unserved.length) {
    throw new Error(`route inventory mismatch: served but not in Nest metadata ${JSON.stringify(unknown)}, in metadata but not served ${JSON.stringify(unserved)}`);
  }
  return served.map((key) => ({ key, ...handlers.get(key)! }));
}

/** Field names that carry an id (of a story, archive, user, ...): `id`, `story_id`, `userID`, `turnId`, ... */
export const ID_FIELD = /^(id|.+_id|.+ID|.+Id)$/;

/** The supertest method of a route: `request(server)[verbOf(route)](url)`. */
export const verbOf = (route: RouteInfo) => route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
