import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { generateIcons, ICNS_TYPES } from '../../../scripts/generate-icons';
import { makeTempDir } from '@test/support/temp-dir';

/**
 * `npm run dist` cannot run here (it downloads Electron), so the configuration it would
 * use is checked instead: against electron-builder's own schema, and for each promise the
 * issue makes about the installers.
 */
const ROOT = path.resolve(__dirname, '../../..');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- js-yaml ships no types; require keeps the one cast here
const yaml = require('js-yaml') as { load(text: string): unknown };
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- electron-builder.yml is read as loose YAML and checked key by key
const config = yaml.load(fs.readFileSync(path.join(ROOT, 'electron-builder.yml'), 'utf8')) as Record<string, any>;
const temp = makeTempDir('coverdesk-icons-');
afterAll(() => temp.cleanup());

describe('electron-builder configuration', () => {
  it('passes electron-builder’s own validation', async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- an internal file of app-builder-lib, not an export an import could name
    const { validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
      validateConfiguration(config: unknown, logger: { isEnabled: boolean; add(): void }): Promise<void>;
    };
    await expect(validateConfiguration(structuredClone(config), { isEnabled: false, add: () => undefined })).resolves.toBeUndefined();
    await expect(validateConfiguration({ ...structuredClone(config), notAnOption: true }, { isEnabled: false, add: () => undefined })).rejects.toThrow();
  });

  it('builds NSIS installers for Windows x64 and arm64', () => {
    expect(config.win.target).toEqual([{ target: 'nsis', arch: ['x64', 'arm64'] }]);
    expect(config.nsis.deleteAppDataOnUninstall).toBe(false);
  });

  it('builds a universal, hardened, notarised dmg for macOS with the camera entitlement only', () => {
    expect(config.mac.target).toEqual([{ target: 'dmg', arch: ['universal'] }]);
    expect(config.mac.hardenedRuntime).toBe(true);
    expect(config.mac.notarize).toBe(true);
    expect(config.mac.extendInfo.NSCameraUsageDescription).toMatch(/camera/);
    const entitlements = fs.readFileSync(path.join(ROOT, config.mac.entitlements), 'utf8');
    const granted = [...entitlements.matchAll(/<key>([^<]+)<\/key>\s*<true\/>/g)].map((m) => m[1]);
    expect(granted).toEqual(['com.apple.security.cs.allow-jit', 'com.apple.security.device.camera']);
  });

  it('flips the Electron fuses: no RunAsNode, NODE_OPTIONS or --inspect; ASAR integrity and ASAR-only loading on', () => {
    expect(config.asar).toBe(true);
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it('publishes a generic update feed configured from the environment, and refuses unsigned builds', () => {
    expect(config.publish).toEqual({ provider: 'generic', url: '${env.COVERDESK_UPDATE_URL}' });
    expect(config.forceCodeSigning).toBe(true);
    expect(config.win.verifyUpdateCodeSignature).toBe(true);
  });

  it('packs the built app and its migrations, and the dist script builds first and never publishes', () => {
    expect(config.files).toEqual(expect.arrayContaining(['out/main/**', 'out/preload/**', 'out/renderer/**', 'drizzle/**', 'package.json']));
    const scripts = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;
    expect(scripts.dist).toMatch(/npm run build && npm run icons && electron-builder .*--publish never/);
    expect(scripts['dist:win']).toMatch(/--win/);
    expect(scripts['dist:mac']).toMatch(/--mac/);
  });
});

describe('icons', () => {
  it('are generated as a 1024 px PNG, a Windows ICO up to 256 px and a macOS ICNS up to 1024 px', async () => {
    const dir = path.join(temp.dir, 'icons');
    await generateIcons(dir);
    expect(config.win.icon).toBe('build/icons/icon.ico');
    expect(config.mac.icon).toBe('build/icons/icon.icns');

    const pngMeta = await sharp(fs.readFileSync(path.join(dir, 'icon.png'))).metadata();
    expect([pngMeta.width, pngMeta.height, pngMeta.format]).toEqual([1024, 1024, 'png']);

    const ico = fs.readFileSync(path.join(dir, 'icon.ico'));
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2), ico.readUInt16LE(4)]).toEqual([0, 1, 7]);
    const sizes = Array.from({ length: 7 }, (_, i) => ico.readUInt8(6 + 16 * i) || 256);
    expect(sizes).toEqual([16, 24, 32, 48, 64, 128, 256]);
    const last = 6 + 16 * 6;
    expect(ico.readUInt32LE(last + 8) + ico.readUInt32LE(last + 12)).toBe(ico.length);

    const icns = fs.readFileSync(path.join(dir, 'icon.icns'));
    expect(icns.toString('latin1', 0, 4)).toBe('icns');
    expect(icns.readUInt32BE(4)).toBe(icns.length);
    const types: string[] = [];
    for (let at = 8; at < icns.length; at += icns.readUInt32BE(at + 4)) {
      types.push(icns.toString('latin1', at, at + 4));
      expect(icns.subarray(at + 8, at + 16).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
    }
    expect(types).toEqual(ICNS_TYPES.map(([type]) => type));
  });
});
