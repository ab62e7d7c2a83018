/**
 * Node versions Fieldpost supports: the same ranges as package.json's `engines` (a test keeps
 * them equal). CI runs Node 20; Lambda runs Node 22.
 */
export const SUPPORTED_NODE = '^20.19.0 || ^22.13.0 || >=24';

/** True for a Node version inside SUPPORTED_NODE ('v20.20.2' or '20.20.2'). */
export function isSupportedNode(version: string): boolean {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  return (major === 20 && minor >= 19) || (major === 22 && minor >= 13) || major >= 24;
}

/**
 * The AWS SDK (@aws-sdk/core's emitWarningIfUnsupportedVersion) prints a NodeVersionSupportWarning
 * on Node below 22 when it builds its first client, telling a user on Node 20 to upgrade, which
 * a user on a version Fieldpost supports need not do. The SDK honours an environment flag for
 * exactly that one warning; set it (unless the user set it either way) on supported versions
 * only, so someone on an unsupported Node still hears about it. Call before any SDK client is
 * built: the local runtime and the command-line entry points import this module first.
 */
export function quietSdkNodeWarning(env: NodeJS.ProcessEnv = process.env, version: string = process.version): void {
  if (env['AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED'] === undefined && isSupportedNode(version)) {
    env['AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED'] = 'true';
  }
}
