// Services whose banner or answer is plainly hostile: a backdoor that greets with a root shell, a shell
// that runs what our probes sent, a Metasploitable training image. Pure; the shared check is in checks.ts.

const SIGNS: ReadonlyArray<{ re: RegExp; why: string }> = [
  { re: /(^|[\r\n])\s*root@[\w.-]+:[^\r\n]*#\s*$/m, why: 'a root shell prompt greets an unauthenticated client' },
  { re: /^\s*(?:sh|bash|ash|dash|zsh)(?:-\d+(?:\.\d+)*)?#\s*$/m, why: 'a root shell prompt greets an unauthenticated client' },
  { re: /^\s*#\s*$/, why: 'a bare root shell prompt ("# ") greets an unauthenticated client' },
  { re: /\buid=0\(root\)/, why: 'the service answers with the output of "id" as root' },
  {
    re: new RegExp(
      String.raw`(^|[\r\n])(?:\/bin\/)?(?:sh|bash)(?:: line \d+)?: (?:\d+: )?` +
        String.raw`(?:GET|OPTIONS|HELP|HEAD|stats|INFO|PING|QUIT|EHLO|USER)\b[^\r\n]*(?:not found|command not found)`,
    ),
    why: 'a shell runs the text of our probes as commands',
  },
  { re: /metasploitable/i, why: 'the banner names Metasploitable, an intentionally vulnerable training image' },
]

/** Why this banner is hostile, or null when nothing plainly hostile shows. */
export function hostileBanner(banner: string | null | undefined): string | null {
  if (!banner) return null
  return SIGNS.find((s) => s.re.test(banner))?.why ?? null
}
