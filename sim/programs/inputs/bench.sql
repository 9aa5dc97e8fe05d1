-- SPDX-License-Identifier: Apache-2.0
-- sim/programs/inputs/bench.sql - the SQL workload of the real-program suite, run by the
-- sqlite3 3.40.1 shell on an in-memory database:
--   sqlite3-static -batch -bail -init /dev/null :memory: \
--       "CREATE TABLE param(n); INSERT INTO param VALUES(N);" ".read bench.sql"
-- (-init /dev/null: no ~/.sqliterc, so the shell does not look up the user's home directory)
-- N (a positive integer) scales it: N * 50 orders, N * 10 customers. Deterministic: its own
-- pseudo-random numbers (a linear congruential generator in a recursive CTE; no random(),
-- no dates from 'now'); every result is ordered.
.headers off
.mode list
PRAGMA temp_store = MEMORY;
CREATE TEMP TABLE param_check(
  rows INTEGER CONSTRAINT "bench.sql: table param must hold one row" CHECK (rows = 1),
  n CONSTRAINT "bench.sql: param.n must be a positive integer" CHECK (typeof(n) = 'integer' AND n >= 1));
INSERT INTO param_check SELECT (SELECT count(*) FROM param), (SELECT n FROM param);
SELECT 'scale', n FROM param;

CREATE TABLE customer(id INTEGER PRIMARY KEY, name TEXT, region TEXT, credit REAL);
CREATE TABLE orders(id INTEGER PRIMARY KEY, customer INTEGER, item TEXT, qty INTEGER,
                    price REAL, day INTEGER, note TEXT);

WITH RECURSIVE g(i, r) AS (
  SELECT 1, 12345
  UNION ALL
  SELECT i + 1, (r * 1103515245 + 12345) % 2147483648 FROM g
  WHERE i < (SELECT n FROM param) * 10
)
INSERT INTO customer
SELECT i, printf('cust%05d-%s', i, substr('abcdefghijklmnopqrstuvwxyz', 1 + (r >> 8) % 26, 3)),
       CASE (r >> 12) % 5 WHEN 0 THEN 'north' WHEN 1 THEN 'south' WHEN 2 THEN 'east'
                          WHEN 3 THEN 'west' ELSE 'central' END,
       ((r >> 4) % 100000) / 100.0
FROM g;

WITH RECURSIVE g(i, r) AS (
  SELECT 1, 67890
  UNION ALL
  SELECT i + 1, (r * 1103515245 + 12345) % 2147483648 FROM g
  WHERE i < (SELECT n FROM param) * 50
)
INSERT INTO orders
SELECT i, 1 + (r >> 8) % ((SELECT n FROM param) * 10),
       'item-' || ((r >> 3) % 97),
       1 + (r >> 16) % 20,
       ((r >> 5) % 10000) / 100.0,
       (r >> 10) % 365,
       CASE WHEN (r >> 20) % 7 = 0 THEN 'rush order, commit before the stall'
            WHEN (r >> 20) % 7 = 1 THEN 'branch office pickup'
            ELSE printf('regular %d', (r >> 6) % 1000) END
FROM g;

CREATE INDEX orders_customer ON orders(customer);
CREATE INDEX orders_day ON orders(day, item);

-- aggregates and joins
SELECT 'regions', region, count(*), round(sum(o.qty * o.price), 2)
FROM orders o JOIN customer c ON c.id = o.customer
GROUP BY region ORDER BY region;

SELECT 'top', c.name, round(sum(o.qty * o.price), 2) AS total
FROM orders o JOIN customer c ON c.id = o.customer
GROUP BY c.id ORDER BY total DESC, c.id LIMIT 5;

-- window functions
SELECT 'running', day, items, round(running, 2) FROM (
  SELECT day, count(*) AS items, sum(sum(qty * price)) OVER (ORDER BY day) AS running
  FROM orders GROUP BY day
) WHERE day % 60 = 0 ORDER BY day;

SELECT 'rank', item, qty, rk FROM (
  SELECT item, sum(qty) AS qty, rank() OVER (ORDER BY sum(qty) DESC, item) AS rk
  FROM orders GROUP BY item
) WHERE rk <= 3 ORDER BY rk;

-- string functions, LIKE, GLOB
SELECT 'notes', count(*), sum(length(note)), sum(note LIKE '%stall%'), sum(note GLOB 'regular 1*'),
       sum(instr(upper(note), 'OFFICE') > 0)
FROM orders;

-- correlated subquery and EXISTS
SELECT 'loyal', count(*) FROM customer c
WHERE (SELECT count(*) FROM orders o WHERE o.customer = c.id) >
      (SELECT count(*) FROM orders) * 1.5 / (SELECT count(*) FROM customer);

SELECT 'idle', count(*) FROM customer c WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.customer = c.id);

-- JSON
SELECT 'json', count(*), sum(json_extract(j, '$.qty')), max(length(j)) FROM (
  SELECT json_object('id', id, 'item', item, 'qty', qty, 'tags', json_array(day, note)) AS j
  FROM orders WHERE id % 3 = 0
);

-- full-text search
CREATE VIRTUAL TABLE notes USING fts3(body);
INSERT INTO notes SELECT note || ' ' || item FROM orders;
SELECT 'fts', count(*) FROM notes WHERE notes MATCH 'rush';
SELECT 'fts', count(*) FROM notes WHERE notes MATCH 'branch OR regular';

-- updates, deletes and a re-check
UPDATE orders SET price = round(price * 1.1, 2) WHERE day BETWEEN 100 AND 200;
DELETE FROM orders WHERE qty = 1 AND item LIKE 'item-1%';
SELECT 'after', count(*), round(sum(qty * price), 2), min(id), max(id) FROM orders;

-- sorting a large result without an index, and a self-join
SELECT 'sorted', count(*), sum(rn * (qty % 7)) % 1000003 FROM (
  SELECT qty, row_number() OVER (ORDER BY note, price DESC, id) AS rn FROM orders
);
SELECT 'pairs', count(*) FROM orders a JOIN orders b
  ON a.customer = b.customer AND a.id < b.id AND a.item = b.item;

SELECT 'integrity', * FROM pragma_integrity_check;
