/** Every forum API key has this community, created when the key is registered or the server starts. */
export const DEFAULT_COMMUNITY = {
  id: "00000000-0000-4000-8000-000000000001",
  name: "general",
  display_name: "General",
} as const;
