# quatcheck process plugin: Godot 3.2's Quat, the engine's C++ core in its real_t (float, f32), called as
# GDScript calls it; run by impls/godot/godot-adapter. It speaks the text wire of docs/plugin-protocol.md
# (hexfloat lines), since GDScript cannot read binary stdin.
#   godot-slerp.f32    a.slerp(b, t): shortest arc, lerp (not normalised) when 1 - |a.b| <= CMP_EPSILON (1e-5)
#   godot-slerpni.f32  a.slerpni(b, t): "without checking if the rotation path is not bigger than 90 degrees"
#                      (Godot's class reference), so no shortest arc, by design
#   godot-cubic.f32    a.cubic_slerp(b, pre_a, post_b, t) over the protocol's squad op (version 3): the class
#                      reference describes pre_a and post_b as the quaternions before a and after b, and
#                      Godot's own animation tracks pass the neighbouring keys, so the hello says
#                      `squad-controls godot-cubic neighbours`. Godot 3.2's code is Shoemake's squad form with
#                      pre_a and post_b in the control points' place: slerpni(slerp(a, b, t), slerpni(pre_a,
#                      post_b, t), 2t(1-t)), so the squad op with the reference's control points is its control.
# GDScript floats are doubles: each input is exact in f32 and rounds to nothing on its way into a Quat; each
# output component is a real_t widened to double and printed exactly with its 24 bits.
extends SceneTree

const HEX = "0123456789abcdef"

# A request's number: a C hexfloat (%a: "-0x1.6a09e6p-1", "0x0p+0"), or nan, inf, -inf. The digits, trailing
# zeros dropped, make an integer of at most 25 bits for a float's value (GDScript's hex_to_int reads 32 bits),
# scaled by a power of two: both exact in a double.
func value(s):
	var p = s.find("p")
	if p < 0:
		if s.ends_with("nan"):
			return NAN
		return -INF if s.begins_with("-") else INF
	var neg = s.begins_with("-")
	var m = s.substr(3 if neg else 2, p - (3 if neg else 2))
	var e = int(s.substr(p + 1, 6))
	var dot = m.find(".")
	if dot >= 0:
		e -= 4 * (m.length() - dot - 1)
		m = m.substr(0, dot) + m.substr(dot + 1, 20)
	while m.length() > 1 and m.ends_with("0"):
		m = m.substr(0, m.length() - 1)
		e += 4
	var v = float(("0x" + m).hex_to_int()) * pow(2.0, e)
	return -v if neg else v

# The exact hexfloat of a value that a float holds: 1 + 23 bits, six hex digits after the point. Inside the
# float range, multiplying by a power of two is exact, and log2 only guesses the exponent, which is corrected.
func hex(v):
	if v != v:
		return "nan"
	if v == INF:
		return "inf"
	if v == -INF:
		return "-inf"
	var sg = ""
	if v < 0 or (v == 0 and str(v).begins_with("-")):
		sg = "-"
		v = -v
	if v == 0:
		return sg + "0x0p+0"
	var e = int(floor(log(v) / LN2))
	var m = v * pow(2.0, -e)
	if m >= 2.0:
		m /= 2.0
		e += 1
	elif m < 1.0:
		m *= 2.0
		e -= 1
	return sg + "0x1." + ("%06x" % (int(m * 16777216.0) - 16777216)) + ("p+" if e >= 0 else "p-") + str(abs(e))

const LN2 = 0.6931471805599453

func _init():
	var v = Engine.get_version_info()
	var version = "%d.%d.%d" % [v.major, v.minor, v.patch]
	print("quatcheck-plugin 3\nlibrary godot " + version + "\nwire text\n"
		+ "family godot-slerp slerp.f32\nfamily godot-slerpni slerp.f32\nfamily godot-cubic squad.f32\n"
		+ "squad-controls godot-cubic neighbours\n"
		+ "known godot-slerpni slerp shortest-arc Godot class reference, Quat.slerpni: 'without checking if the rotation path is not bigger than 90 degrees'\n"
		+ "known godot-slerpni slerp sign-invariance Godot class reference, Quat.slerpni: 'without checking if the rotation path is not bigger than 90 degrees'\n"
		+ "end")
	var input = File.new()
	if input.open(OS.get_environment("QC_GODOT_INPUT"), File.READ) != OK:  # set by godot-adapter
		printerr("adapter.gd: cannot open the input file")
		quit()
		return
	Directory.new().remove(OS.get_environment("QC_GODOT_INPUT"))  # open: the file lives until Godot ends
	var pending = ""
	var at = 0
	while true:
		# The next request: its header line, then BYTES bytes of case lines, as the file grows.
		var head = []
		var need = -1
		while need < 0 or pending.length() < need:
			var size = input.get_len()
			if size > at:
				input.seek(at)
				pending += input.get_buffer(size - at).get_string_from_ascii()
				at = size
			elif need < 0 and pending == "eof\n":
				quit()
				return
			else:
				OS.delay_usec(100)
			if need < 0:
				var nl = pending.find("\n")
				if nl >= 0 and pending.begins_with("batch "):
					head = pending.substr(0, nl).split(" ")
					pending = pending.substr(nl + 1, pending.length())
					need = int(head[5])
				elif nl >= 0:
					quit()  # "eof", or not a request
					return
		var body = pending.substr(0, need)
		pending = pending.substr(need, pending.length())
		var lines = body.split("\n", false)
		var seq = int(head[1])
		var family = int(head[2])
		var n = int(head[4])
		var qa = []
		var qb = []
		var qc = []
		var qd = []
		var ts = []
		for c in range(n):
			var w = lines[c].split(" ")
			qa.append(Quat(value(w[1]), value(w[2]), value(w[3]), value(w[0])))
			qb.append(Quat(value(w[5]), value(w[6]), value(w[7]), value(w[4])))
			if family == 2:  # squad: q0, q1, pre_a, post_b, t
				qc.append(Quat(value(w[9]), value(w[10]), value(w[11]), value(w[8])))
				qd.append(Quat(value(w[13]), value(w[14]), value(w[15]), value(w[12])))
				ts.append(value(w[16]))
			else:
				ts.append(value(w[8]))
		var out = []
		var t0 = OS.get_ticks_usec()
		if family == 2:
			for c in range(n):
				out.append(qa[c].cubic_slerp(qb[c], qc[c], qd[c], ts[c]))
		elif family == 0:
			for c in range(n):
				out.append(qa[c].slerp(qb[c], ts[c]))
		else:
			for c in range(n):
				out.append(qa[c].slerpni(qb[c], ts[c]))
		var us = OS.get_ticks_usec() - t0
		var text = PoolStringArray()
		text.append("answer %d %d %d" % [seq, n, us * 1000])
		for r in out:
			text.append(hex(r.w) + " " + hex(r.x) + " " + hex(r.y) + " " + hex(r.z))
		print(text.join("\n"))
	quit()
