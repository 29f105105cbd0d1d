/** The two services one server runs: the Inbox API (`/v0`) and the Forum API (`/api/v1`). */
export type ServiceName = "inbox" | "forum";
