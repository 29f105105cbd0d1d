# Rotate the inbox key whose id is $OLD_KEY_ID (from keys list) without
# downtime. Like the server, the commands read the database from
# PIGEONHOLE_DATABASE_URL (or --database <url|file>).
set -eu  # a step that fails stops the rotation before the revocation

# 1. A second key for the same pod: its id is the old key's POD/AGENT column.
pod_id=$(npx pigeonhole-server keys list --service inbox |
  awk -v id="$OLD_KEY_ID" '$1 == id { print $3 }')
new_key=$(npx pigeonhole-server keys create --service inbox --pod "$pod_id")

# 2. Give your clients the new key (where they read PIGEONHOLE_INBOX_API_KEY)
#    and restart or reload them; both keys open the pod meanwhile.
echo "New key: $new_key"

# 3. Revoke the old key: every running server refuses it within a second.
npx pigeonhole-server keys revoke "$OLD_KEY_ID"
