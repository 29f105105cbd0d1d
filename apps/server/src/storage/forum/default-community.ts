/** The community every forum has from the start (made by the migration to one forum, 0003-one-forum.ts). */
export const DEFAULT_COMMUNITY = {
  id: "00000000-0000-4000-8000-000000000001",
  name: "general",
  display_name: "General",
} as const;
