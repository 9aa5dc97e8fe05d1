-- SPDX-License-Identifier: Apache-2.0
-- sim/programs/inputs/bench.lua - the Lua workload of the real-program suite, run by Lua 5.4
-- (build/programs/bin/lua-static bench.lua N). N (default 1) scales every kernel; the output
-- depends on N alone: no time, no environment, no iteration over hash order, and its own
-- random numbers (a 31-bit linear congruential generator, its high bits; not math.random).
-- Kernels: binary trees (allocation, GC), fannkuch (small-array permutations), n-body and
-- spectral norm (floating point), string building, gsub and pattern matching, table.sort
-- with a Lua comparator, coroutine generators, and a small interpreter of a stack language
-- (closures, dispatch through a table of functions).
local N = tonumber(arg and arg[1] or "1")
if not N or N < 1 or N ~= math.floor(N) then
	io.stderr:write("bench.lua: bad scale '", tostring(arg and arg[1]), "' (a positive integer)\n")
	os.exit(2)
end

local seed = 12345
local function rand(m)
	seed = (seed * 1103515245 + 12345) % 2147483648
	return (seed >> 8) % m
end

-- binary trees
local function bottomup(d)
	if d == 0 then return {} end
	d = d - 1
	return { bottomup(d), bottomup(d) }
end
local function check(t)
	if t[1] then return 1 + check(t[1]) + check(t[2]) end
	return 1
end
local function binarytrees(reps)
	local maxd = 6
	local long = bottomup(maxd)
	local total = 0
	for _ = 1, reps do
		for d = 4, maxd, 2 do
			local iters = 1 << (maxd - d + 1)
			for _ = 1, iters do total = total + check(bottomup(d)) end
		end
	end
	print("trees", reps, check(long), total)
end

-- fannkuch-redux
local function fannkuch(n)
	local p, q, s, sign, maxflips, sum = {}, {}, {}, 1, 0, 0
	for i = 1, n do p[i] = i; q[i] = i; s[i] = i end
	while true do
		local q1 = p[1]
		if q1 ~= 1 then
			for i = 2, n do q[i] = p[i] end
			local flips = 1
			while true do
				local qq = q[q1]
				if qq == 1 then
					sum = sum + sign * flips
					if flips > maxflips then maxflips = flips end
					break
				end
				q[q1] = q1
				if q1 >= 4 then
					local i, j = 2, q1 - 1
					repeat q[i], q[j] = q[j], q[i]; i = i + 1; j = j - 1 until i >= j
				end
				q1 = qq; flips = flips + 1
			end
		end
		if sign == 1 then
			p[2], p[1] = p[1], p[2]; sign = -1
		else
			p[2], p[3] = p[3], p[2]; sign = 1
			for i = 3, n do
				local sx = s[i]
				if sx ~= 1 then s[i] = sx - 1; break end
				if i == n then return sum, maxflips end
				s[i] = i
				local t = p[1]; for j = 1, i do p[j] = p[j + 1] end; p[i + 1] = t
			end
		end
	end
end

-- n-body
local function nbody(steps)
	local PI, DAYS = math.pi, 365.24
	local SM = 4 * PI * PI
	local bodies = {
		{ 0, 0, 0, 0, 0, 0, SM },
		{ 4.84143144246472090e+00, -1.16032004402742839e+00, -1.03622044471123109e-01,
		  1.66007664274403694e-03 * DAYS, 7.69901118419740425e-03 * DAYS,
		  -6.90460016972063023e-05 * DAYS, 9.54791938424326609e-04 * SM },
		{ 8.34336671824457987e+00, 4.12479856412430479e+00, -4.03523417114321381e-01,
		  -2.76742510726862411e-03 * DAYS, 4.99852801234917238e-03 * DAYS,
		  2.30417297573763929e-05 * DAYS, 2.85885980666130812e-04 * SM },
		{ 1.28943695621391310e+01, -1.51111514016986312e+01, -2.23307578892655734e-01,
		  2.96460137564761618e-03 * DAYS, 2.37847173959480950e-03 * DAYS,
		  -2.96589568540237556e-05 * DAYS, 4.36624404335156298e-05 * SM },
		{ 1.53796971148509165e+01, -2.59193146099879641e+01, 1.79258772950371181e-01,
		  2.68067772490389322e-03 * DAYS, 1.62824170038242295e-03 * DAYS,
		  -9.51592254519715870e-05 * DAYS, 5.15138902046611451e-05 * SM },
	}
	local nb = #bodies
	local function energy()
		local e = 0
		for i = 1, nb do
			local b = bodies[i]
			e = e + 0.5 * b[7] * (b[4] * b[4] + b[5] * b[5] + b[6] * b[6])
			for j = i + 1, nb do
				local c = bodies[j]
				local dx, dy, dz = b[1] - c[1], b[2] - c[2], b[3] - c[3]
				e = e - b[7] * c[7] / math.sqrt(dx * dx + dy * dy + dz * dz)
			end
		end
		return e
	end
	local px, py, pz = 0, 0, 0
	for i = 1, nb do
		local b = bodies[i]
		px = px + b[4] * b[7]; py = py + b[5] * b[7]; pz = pz + b[6] * b[7]
	end
	bodies[1][4], bodies[1][5], bodies[1][6] = -px / SM, -py / SM, -pz / SM
	print(string.format("nbody start %.9f", energy()))
	local dt = 0.01
	for _ = 1, steps do
		for i = 1, nb do
			local b = bodies[i]
			local bx, by, bz, bm = b[1], b[2], b[3], b[7]
			local vx, vy, vz = b[4], b[5], b[6]
			for j = i + 1, nb do
				local c = bodies[j]
				local dx, dy, dz = bx - c[1], by - c[2], bz - c[3]
				local d2 = dx * dx + dy * dy + dz * dz
				local mag = dt / (d2 * math.sqrt(d2))
				local bmm, cmm = bm * mag, c[7] * mag
				vx = vx - dx * cmm; vy = vy - dy * cmm; vz = vz - dz * cmm
				c[4] = c[4] + dx * bmm; c[5] = c[5] + dy * bmm; c[6] = c[6] + dz * bmm
			end
			b[4], b[5], b[6] = vx, vy, vz
			b[1], b[2], b[3] = bx + dt * vx, by + dt * vy, bz + dt * vz
		end
	end
	print(string.format("nbody end   %.9f", energy()))
end

local function fannkuchs(reps)
	local sum, flips = 0, 0
	for r = 1, reps do
		local s, f = fannkuch(5 + r % 2)
		sum, flips = sum + s, flips + f
	end
	print("fannkuch", reps, sum, flips)
end

-- spectral norm
local function spectral(n)
	local function A(i, j)
		local ij = i + j - 1
		return 1.0 / (ij * (ij - 1) * 0.5 + i)
	end
	local function Av(x, y)
		for i = 1, n do
			local a = 0
			for j = 1, n do a = a + x[j] * A(i, j) end
			y[i] = a
		end
	end
	local function Atv(x, y)
		for i = 1, n do
			local a = 0
			for j = 1, n do a = a + x[j] * A(j, i) end
			y[i] = a
		end
	end
	local u, v, t = {}, {}, {}
	for i = 1, n do u[i] = 1 end
	for _ = 1, 10 do
		Av(u, t); Atv(t, v); Av(v, t); Atv(t, u)
	end
	local vBv, vv = 0, 0
	for i = 1, n do
		local ui, vi = u[i], v[i]
		vBv = vBv + ui * vi; vv = vv + vi * vi
	end
	return math.sqrt(vBv / vv)
end
local function spectrals(reps)
	local acc = 0
	for r = 1, reps do acc = acc + spectral(4 + r % 4) end
	print(string.format("spectral %d %0.9f", reps, acc))
end

-- strings: build a text, count words with patterns, rewrite it with gsub
local words = { "commit", "retire", "stall", "flush", "branch", "cache", "miss", "load",
	"store", "fetch", "decode", "issue", "rob", "sample", "profile", "cycle" }
local function strings(lines)
	local out = {}
	for i = 1, lines do
		local parts = {}
		for k = 1, 8 + rand(8) do parts[k] = words[rand(#words) + 1] end
		out[i] = string.format("%06d %s 0x%08x", i, table.concat(parts, " "), rand(1 << 30))
	end
	local text = table.concat(out, "\n")
	local count = {}
	for w in text:gmatch("%a+") do count[w] = (count[w] or 0) + 1 end
	local keys = {}
	for k in pairs(count) do keys[#keys + 1] = k end
	table.sort(keys)
	local summary = {}
	for _, k in ipairs(words) do summary[#summary + 1] = k .. "=" .. (count[k] or 0) end
	print("words", #keys, table.concat(summary, " "))
	local rewritten, n = text:gsub("(%x%x)(%x%x)(%x%x)(%x%x)\n", "%4%3%2%1;")
	local h = 0
	for i = 1, #rewritten, 7 do h = (h * 31 + rewritten:byte(i)) % 4294967296 end
	print("gsub", n, #rewritten, h, rewritten:find("stall flush", 1, true) ~= nil)
	local hexes = 0
	for a, b in text:gmatch("(%d+) (%a+)") do hexes = hexes + #a + #b end
	print("captures", hexes, select(2, text:gsub("cache miss", "")))
end

-- sorting records with a Lua comparator
local function sorting(n)
	local recs = {}
	for i = 1, n do recs[i] = { key = rand(1000), sub = rand(1000000), id = i } end
	table.sort(recs, function(a, b)
		if a.key ~= b.key then return a.key < b.key end
		if a.sub ~= b.sub then return a.sub > b.sub end
		return a.id < b.id
	end)
	local h = 0
	for i = 1, n, 3 do h = (h * 131 + recs[i].id) % 1000000007 end
	print("sort", n, recs[1].id, recs[n].id, h)
end

-- coroutines: a pipeline of generators (primes by trial division, then a filter)
local function coroutines(reps)
	local function gen(n)
		return coroutine.wrap(function() for i = 2, n do coroutine.yield(i) end end)
	end
	local function filter(p, g)
		return coroutine.wrap(function()
			for x in g do if x % p ~= 0 then coroutine.yield(x) end end
		end)
	end
	local count, last = 0, 0
	for r = 1, reps do
		local g = gen(30 + r % 20)
		while true do
			local p = g()
			if not p then break end
			count = count + 1; last = p
			g = filter(p, g)
		end
	end
	print("coroutine primes", reps, count, last)
end

-- a stack-language interpreter: programs as token lists, words as closures
local function interp(reps)
	local stack, sp = {}, 0
	local function push(x) sp = sp + 1; stack[sp] = x end
	local function pop() local x = stack[sp]; sp = sp - 1; return x end
	local ops = {
		["+"] = function() local b, a = pop(), pop(); push((a + b) % 1000003) end,
		["*"] = function() local b, a = pop(), pop(); push((a * b) % 1000003) end,
		["-"] = function() local b, a = pop(), pop(); push((a - b) % 1000003) end,
		dup = function() local a = pop(); push(a); push(a) end,
		swap = function() local b, a = pop(), pop(); push(b); push(a) end,
		over = function() local b, a = pop(), pop(); push(a); push(b); push(a) end,
		drop = function() pop() end,
	}
	local prog = {}
	for w in ("1 2 over over + swap dup * + 3 * swap drop dup 7 + * 5 - dup +"):gmatch("%S+") do
		prog[#prog + 1] = tonumber(w) or ops[w]
	end
	local acc = 0
	for r = 1, reps do
		sp = 0
		push(r)
		for i = 1, #prog do
			local t = prog[i]
			if type(t) == "number" then push(t) else t() end
		end
		acc = (acc + pop() * r) % 1000000007
	end
	print("interp", reps, acc)
end

local kernels = {
	{ "trees", binarytrees, 1 }, { "fannkuch", fannkuchs, 1 }, { "nbody", nbody, 30 },
	{ "spectral", spectrals, 1 }, { "strings", strings, 10 }, { "sort", sorting, 50 },
	{ "coroutines", coroutines, 1 }, { "interp", interp, 30 },
}
local only = arg and arg[2]
for _, k in ipairs(kernels) do
	if not only or only == k[1] then k[2](k[3] * N) end
end
print("done", N)
