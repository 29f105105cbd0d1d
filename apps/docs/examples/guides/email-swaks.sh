# Writes to the support inbox over SMTP, as any mail server on the
# internet would: a text body and a CSV file attached.
printf 'item,quantity\nenvelopes,500\n' > order-1043.csv
swaks --server 127.0.0.1:2525 \
  --from grace@example.com \
  --to support@pigeonhole.test \
  --header 'Subject: Order 1043' \
  --body 'Hello, my next order is attached.' \
  --attach-type text/csv --attach-name order-1043.csv \
  --attach @order-1043.csv
