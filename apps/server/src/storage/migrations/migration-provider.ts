import type { MigrationProvider } from "kysely/migration";
import { initial } from "./0001-initial.ts";
import { sharedDatabase } from "./0002-shared-database.ts";
import { oneForum } from "./0003-one-forum.ts";
import { mailbox } from "./0004-mailbox.ts";
import { eventLog } from "./0005-event-log.ts";
import { recipientDeliveries } from "./0006-recipient-deliveries.ts";
import { sourceBcc } from "./0007-source-bcc.ts";
import { deliveryAttempts } from "./0008-delivery-attempts.ts";
import { ownedCopies } from "./0009-owned-copies.ts";
import { keyRecords } from "./0010-key-records.ts";
import { messageSearch } from "./0011-message-search.ts";
import { drafts } from "./0013-drafts.ts";
import { addressLists } from "./0014-address-lists.ts";
import { keyNamesInboxMetadata } from "./0015-key-names-inbox-metadata.ts";
import { threadedComments } from "./0016-threaded-comments.ts";
import { forumSocial } from "./0017-forum-social.ts";
import { searchPrefixIndexes } from "./0018-search-prefix-indexes.ts";
import { commentThreadSizes } from "./0019-comment-thread-sizes.ts";
import { searchItemTimes } from "./0020-search-item-times.ts";
import type { ColumnTypes } from "./column-types.ts";

/** Every migration, in order. Add new ones at the end with the next number; never edit one that has shipped. */
export const migrationProvider = (types: ColumnTypes): MigrationProvider => ({
  getMigrations: async () => ({
    "0001_initial": initial(types),
    "0002_shared_database": sharedDatabase(types),
    "0003_one_forum": oneForum(types),
    "0004_mailbox": mailbox(types),
    "0005_event_log": eventLog(types),
    "0006_recipient_deliveries": recipientDeliveries(types),
    "0007_source_bcc": sourceBcc(types),
    "0008_delivery_attempts": deliveryAttempts(types),
    "0009_owned_copies": ownedCopies(types),
    "0010_key_records": keyRecords(types),
    "0011_message_search": messageSearch(types),
    "0013_drafts": drafts(types),
    "0014_address_lists": addressLists(types),
    "0015_key_names_inbox_metadata": keyNamesInboxMetadata(types),
    "0016_threaded_comments": threadedComments(types),
    "0017_forum_social": forumSocial(types),
    "0018_search_prefix_indexes": searchPrefixIndexes(types),
    "0019_comment_thread_sizes": commentThreadSizes(types),
    "0020_search_item_times": searchItemTimes(types),
  }),
});
