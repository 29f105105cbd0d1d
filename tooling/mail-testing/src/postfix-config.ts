import { join } from "node:path";

/** The relay's own folder and what lives in it; nothing outside it is written. */
export interface RelayPaths {
  readonly root: string;
  /** main.cf, master.cf, the lookup tables and Cyrus SASL's smtpd.conf. */
  readonly config: string;
  readonly queue: string;
  readonly data: string;
  /** virtual(8) delivers every message into the Maildir `maildir/` under this folder. */
  readonly mailboxes: string;
  readonly log: string;
  readonly recipientReplies: string;
  readonly transports: string;
  readonly sasldb: string;
}

export function relayPaths(root: string): RelayPaths {
  const config = join(root, "config");
  return {
    root,
    config,
    queue: join(root, "queue"),
    data: join(root, "data"),
    mailboxes: join(root, "mailboxes"),
    log: join(root, "maillog"),
    recipientReplies: join(config, "recipient-replies"),
    transports: join(config, "transports"),
    sasldb: join(root, "sasldb2"),
  };
}

/** The name the relay gives itself in its greeting and Received headers, and the realm of its SASL users. */
export const RELAY_HOSTNAME = "relay.localhost";

export interface PostfixSettings {
  readonly paths: RelayPaths;
  readonly port: number;
  /** The `postfix` account, which owns the queue and the delivered mail. */
  readonly uid: number;
  readonly gid: number;
  /** Only clients that log in may send mail through the relay. */
  readonly requireLogin: boolean;
}

/** A size larger than any message the tests send, so that the relay never refuses one for its size. */
const MESSAGE_SIZE_LIMIT = 64 * 1024 * 1024;

/**
 * main.cf of a relay that accepts mail for every domain and keeps it in one Maildir, except the domains the transport
 * table sends elsewhere. Tables are read as text (`texthash`) so that a rewrite needs no `postmap`.
 */
export function mainCf({ paths, uid, gid, requireLogin }: PostfixSettings): string {
  const settings: [string, string | number][] = [
    ["compatibility_level", "3.6"],
    ["queue_directory", paths.queue],
    ["data_directory", paths.data],
    ["mail_owner", "postfix"],
    ["setgid_group", "postdrop"],
    ["myhostname", RELAY_HOSTNAME],
    ["mydomain", "localhost"],
    ["myorigin", RELAY_HOSTNAME],
    // No domain is local: every one is a virtual mailbox domain, stored in the Maildir.
    ["mydestination", ""],
    ["local_recipient_maps", ""],
    ["alias_maps", ""],
    ["alias_database", ""],
    ["inet_interfaces", "127.0.0.1"],
    ["inet_protocols", "ipv4"],
    ["mynetworks", "127.0.0.0/8"],
    ["maillog_file", paths.log],
    ["maillog_file_prefixes", paths.root],
    ["virtual_mailbox_domains", "static:all"],
    ["virtual_mailbox_base", paths.mailboxes],
    // A trailing slash makes it a Maildir, whose messages appear in new/ whole (written in tmp/, then renamed).
    ["virtual_mailbox_maps", "static:maildir/"],
    ["virtual_uid_maps", `static:${uid}`],
    ["virtual_gid_maps", `static:${gid}`],
    ["virtual_minimum_uid", 1],
    ["virtual_mailbox_limit", 0],
    ["message_size_limit", MESSAGE_SIZE_LIMIT],
    ["transport_maps", `texthash:${paths.transports}`],
    ["smtpd_relay_restrictions", requireLogin ? "permit_sasl_authenticated, reject" : "permit_mynetworks, reject"],
    ["smtpd_recipient_restrictions", `check_recipient_access texthash:${paths.recipientReplies}, permit`],
    // Tests send many messages at once and expect refusals: no pause after either.
    ["in_flow_delay", "0s"],
    ["smtpd_error_sleep_time", "0s"],
    ["smtpd_soft_error_limit", 1000],
    ["smtpd_hard_error_limit", 1000],
    // Routed domains name 127.0.0.1 itself: no DNS, and quick retries when the server there refuses for a while.
    ["smtp_dns_support_level", "disabled"],
    ["smtp_host_lookup", "native"],
    ["smtp_connect_timeout", "5s"],
    ["queue_run_delay", "1s"],
    ["minimal_backoff_time", "1s"],
    ["maximal_backoff_time", "5s"],
    ["biff", "no"],
  ];
  if (requireLogin) {
    settings.push(
      ["smtpd_sasl_auth_enable", "yes"],
      ["smtpd_sasl_type", "cyrus"],
      ["smtpd_sasl_path", "smtpd"],
      ["cyrus_sasl_config_path", paths.config],
      ["smtpd_sasl_local_domain", RELAY_HOSTNAME],
    );
  }
  return settings.map(([name, value]) => `${name} = ${value}\n`).join("");
}

/**
 * master.cf: the services a relay needs, none in a chroot. Each smtpd serves one connection and exits (`max_use=1`), so
 * that the next one reads the recipient replies as they are now.
 */
export function masterCf({ port }: PostfixSettings): string {
  const services = [
    `127.0.0.1:${port} inet n - n - - smtpd -o max_use=1`,
    "pickup unix n - n 60 1 pickup",
    "cleanup unix n - n - 0 cleanup",
    "qmgr unix n - n 300 1 qmgr",
    "rewrite unix - - n - - trivial-rewrite",
    "bounce unix - - n - 0 bounce",
    "defer unix - - n - 0 bounce",
    "trace unix - - n - 0 bounce",
    "verify unix - - n - 1 verify",
    "flush unix n - n 1000? 0 flush",
    "proxymap unix - - n - - proxymap",
    "smtp unix - - n - - smtp",
    "relay unix - - n - - smtp",
    "showq unix n - n - - showq",
    "error unix - - n - - error",
    "retry unix - - n - - error",
    "discard unix - - n - - discard",
    "virtual unix - n n - - virtual",
    "anvil unix - - n - 1 anvil",
    "scache unix - - n - 1 scache",
    "postlog unix-dgram n - n - 1 postlogd",
  ];
  return `${services.join("\n")}\n`;
}

/** Cyrus SASL's settings for smtpd: passwords from a sasldb file in the relay's folder, no daemon. */
export function saslConfig(paths: RelayPaths): string {
  return `pwcheck_method: auxprop\nauxprop_plugin: sasldb\nsasldb_path: ${paths.sasldb}\nmech_list: PLAIN LOGIN\n`;
}
