/*
 * viewer.js: rollfric's A/B viewer (demos/README.md, "The A/B
 * viewer").  Two recordings of a run (docs/recording.md), stock and cone
 * or any two files, side by side in 3D with one shared orbit camera and
 * one clock.
 *
 * view.html loads, in order: three.js r111 (Debian's libjs-three, copied
 * next to the page by rfdemo: three.min.js, OrbitControls.js,
 * ConvexHull.js, ConvexGeometry.js), view-data.js (RF_VIEW: the pairs of
 * recordings, written by rfdemo) and this file.  The recordings are
 * scripts too, <name>.js, each setting RF_RECORDINGS[name] to the base64
 * of the .rec file: a page opened from file:// may load scripts beside it
 * but not fetch() or XMLHttpRequest them.  They are loaded when their
 * pair is shown, so that one page serves every scene of a run.
 *
 * Sections: the recording reader; Track (a body's pose at any time);
 * View (a three.js scene per recording and its renderer, bodies picked
 * under the mouse); Plot (a plot of time drawn on a canvas from
 * view-data.js, with a cursor at the shown time); the page (loading, the
 * shared camera, playback, controls); window.rfViewer (the state a test
 * reads: tests/demos/view_check.js).
 */
(function () {
    'use strict';

    /* Errors for the status line and for tests: view.html's first script
       collects window errors (a script that failed to load included) and
       console.error calls into RF_VIEW_ERRORS. */
    var errors = window.RF_VIEW_ERRORS || (window.RF_VIEW_ERRORS = []);

    function $(id) {
        return document.getElementById(id);
    }

    /* ---- the recording reader (docs/recording.md) ---- */

    var SHAPE = {
        SPHERE: 1,
        BOX: 2,
        CYLINDER: 3,
        CAPSULE: 4,
        CONE: 5,
        HULL: 6,
        PLANE: 7,
        MESH: 8,
        OTHER: 9
    };
    var RECORD_VERSION = 1; /* the newest version this reader knows */

    function base64ToBytes(text) {
        var bin = atob(text);
        var bytes = new Uint8Array(bin.length);
        for (var i = 0; i < bin.length; ++i) {
            bytes[i] = bin.charCodeAt(i);
        }
        return bytes;
    }

    function formatError(what, offset) {
        return new Error('malformed recording: ' + what + ' (chunk at byte ' +
            offset + ')');
    }

    /* BODY: id, flags, name, parts (each: kind, axis, size, position,
       quaternion, vertices, triangles). */
    function readBody(dv, bytes, p, len, at) {
        var end = p + len;
        function need(k) {
            if (p + k > end) {
                throw formatError('BODY shorter than its fields', at);
            }
        }
        need(12);
        var body = {
            id: dv.getInt32(p, true),
            isStatic: (dv.getUint32(p + 4, true) & 1) !== 0,
            name: '',
            parts: []
        };
        var nlen = dv.getUint32(p + 8, true);
        p += 12;
        need(nlen + 4);
        for (var i = 0; i < nlen; ++i) {
            body.name += String.fromCharCode(bytes[p + i]);
        }
        try { /* UTF-8 */
            body.name = decodeURIComponent(escape(body.name));
        } catch (e) { /* keep the bytes as Latin-1 */ }
        p += nlen;
        var nparts = dv.getUint32(p, true);
        p += 4;
        for (var k = 0; k < nparts; ++k) {
            need(60);
            var part = {
                kind: dv.getUint32(p, true),
                axis: dv.getUint32(p + 4, true),
                size: [],
                pos: [],
                quat: [],
                verts: null,
                tris: null
            };
            for (var c = 0; c < 4; ++c) {
                part.size.push(dv.getFloat32(p + 8 + 4 * c, true));
                part.quat.push(dv.getFloat32(p + 36 + 4 * c, true));
            }
            for (c = 0; c < 3; ++c) {
                part.pos.push(dv.getFloat32(p + 24 + 4 * c, true));
            }
            var nv = dv.getUint32(p + 52, true);
            p += 56;
            need(12 * nv + 4);
            part.verts = new Float32Array(3 * nv);
            for (i = 0; i < 3 * nv; ++i) {
                part.verts[i] = dv.getFloat32(p + 4 * i, true);
            }
            p += 12 * nv;
            var nt = dv.getUint32(p, true);
            p += 4;
            need(12 * nt);
            part.tris = new Uint32Array(3 * nt);
            for (i = 0; i < 3 * nt; ++i) {
                part.tris[i] = dv.getUint32(p + 4 * i, true);
                if (part.tris[i] >= nv) {
                    throw formatError('a triangle index past the vertices', at);
                }
            }
            p += 12 * nt;
            if (part.kind < SHAPE.SPHERE || part.kind > SHAPE.OTHER ||
                part.axis > 2) {
                throw formatError('unknown shape kind ' + part.kind +
                    ' or axis ' + part.axis, at);
            }
            body.parts.push(part);
        }
        if (nparts < 1) {
            throw formatError('a body without parts', at);
        }
        return body;
    }

    /*
     * Reads a recording (a Uint8Array) into
     *   {version, hasContacts, step, frameInterval, complete, notes,
     *    bodies: [{id, isStatic, name, parts, firstFrame, goneFrame}],
     *    frames: [{time, n, body (Int32Array: indices into bodies),
     *              tf (Float32Array: 7 per entry, x y z qx qy qz qw),
     *              full (lists every live body), contacts}]}
     * Frames name bodies by index into bodies (an id declared again after
     * a GONE is another body).  contacts: null or {n, a, b (Int32Array,
     * body indices or -1), v (Float32Array, 10 per contact: point,
     * normal, normal force, rolling torque)}.  Unknown chunks are skipped;
     * a file cut short keeps its whole chunks, and with contacts a last
     * frame without its CONT is dropped, as rf_recording_read does.
     * Throws an Error for what is not a recording or is malformed.
     */
    function readRecording(bytes) {
        var n = bytes.length;
        var dv = new DataView(bytes.buffer, bytes.byteOffset, n);
        var magic = String.fromCharCode.apply(null, bytes.subarray(0, 8));
        if (n < 32 || magic !== 'RFRECORD') {
            throw new Error('not a recording (no 32-byte RFRECORD header)');
        }
        var rec = {
            version: dv.getUint32(8, true),
            hasContacts: (dv.getUint32(12, true) & 1) !== 0,
            step: dv.getFloat64(16, true),
            frameInterval: dv.getFloat64(24, true),
            complete: false,
            notes: [],
            bodies: [],
            frames: []
        };
        if (rec.version < 1 || rec.version > RECORD_VERSION) {
            throw new Error('recording version ' + rec.version +
                ' (this viewer reads 1 to ' + RECORD_VERSION + ')');
        }
        var live = new Map(); /* id -> index of the live body in bodies */
        var pending = null;   /* a FRAM waiting for its CONT */
        var skipped = 0;      /* frame entries or contacts naming no body */
        function commit(frame) {
            rec.frames.push(frame);
        }
        function nextFrame() { /* the index the next FRAM will have */
            return rec.frames.length + (pending !== null ? 1 : 0);
        }
        var off = 32;
        while (off + 8 <= n) {
            var tag = String.fromCharCode(bytes[off], bytes[off + 1],
                bytes[off + 2], bytes[off + 3]);
            var len = dv.getUint32(off + 4, true);
            var p = off + 8;
            if (len > n - p) {
                rec.notes.push('its last chunk (' + tag + ') is cut short');
                break;
            }
            if (tag === 'END ') {
                rec.complete = true;
                break;
            }
            if (tag === 'BODY') {
                var body = readBody(dv, bytes, p, len, off);
                body.index = rec.bodies.length;
                body.firstFrame = -1;
                body.goneFrame = -1;
                if (live.has(body.id)) { /* not allowed; the old one goes */
                    rec.bodies[live.get(body.id)].goneFrame = nextFrame();
                }
                live.set(body.id, body.index);
                rec.bodies.push(body);
            } else if (tag === 'GONE' && len >= 4) {
                var id = dv.getInt32(p, true);
                if (live.has(id)) {
                    rec.bodies[live.get(id)].goneFrame = nextFrame();
                    live.delete(id);
                }
            } else if (tag === 'FRAM') {
                if (pending !== null) { /* its CONT never came */
                    commit(pending);
                    pending = null;
                }
                if (len < 12) {
                    throw formatError('FRAM shorter than its header', off);
                }
                var count = dv.getUint32(p + 8, true);
                if (count > (len - 12) / 32) {
                    throw formatError('FRAM with more entries than bytes', off);
                }
                var frame = {
                    time: dv.getFloat64(p, true),
                    n: 0,
                    body: new Int32Array(count),
                    tf: new Float32Array(7 * count),
                    full: false,
                    contacts: null
                };
                var index = rec.frames.length;
                for (var k = 0; k < count; ++k) {
                    var q = p + 12 + 32 * k;
                    var b = live.get(dv.getInt32(q, true));
                    if (b === undefined) {
                        ++skipped;
                        continue;
                    }
                    frame.body[frame.n] = b;
                    for (var c = 0; c < 7; ++c) {
                        frame.tf[7 * frame.n + c] =
                            dv.getFloat32(q + 4 + 4 * c, true);
                    }
                    if (rec.bodies[b].firstFrame < 0) {
                        rec.bodies[b].firstFrame = index;
                    }
                    ++frame.n;
                }
                frame.full = frame.n === live.size;
                if (index > 0 && frame.time < rec.frames[index - 1].time) {
                    frame.time = rec.frames[index - 1].time;
                }
                if (rec.hasContacts) {
                    pending = frame;
                } else {
                    commit(frame);
                }
            } else if (tag === 'CONT' && pending !== null && len >= 4) {
                var nc = dv.getUint32(p, true);
                if (nc > (len - 4) / 48) {
                    throw formatError('CONT with more contacts than bytes',
                        off);
                }
                var ct = {
                    n: nc,
                    a: new Int32Array(nc),
                    b: new Int32Array(nc),
                    v: new Float32Array(10 * nc)
                };
                for (k = 0; k < nc; ++k) {
                    var r = p + 4 + 48 * k;
                    for (var side = 0; side < 2; ++side) {
                        var cid = dv.getInt32(r + 4 * side, true);
                        var cb = cid < 0 ? -1 : live.get(cid);
                        if (cb === undefined) {
                            ++skipped;
                            cb = -1;
                        }
                        (side === 0 ? ct.a : ct.b)[k] = cb;
                    }
                    for (c = 0; c < 10; ++c) {
                        ct.v[10 * k + c] = dv.getFloat32(r + 8 + 4 * c, true);
                    }
                }
                pending.contacts = ct;
                commit(pending);
                pending = null;
            }
            off = p + len;
        }
        if (pending !== null) {
            rec.notes.push('its last frame has no contacts (dropped)');
        }
        if (!rec.complete) {
            rec.notes.push('the file ends before its END mark (a run cut ' +
                'short?)');
        }
        if (skipped > 0) {
            rec.notes.push(skipped + ' entries name no live body (skipped)');
        }
        return rec;
    }

    /* ---- Track: every body's pose at a time ---- */

    /* A frame need not list every body (a body keeps its last listed
       transform), so the pose at frame f is built by applying frames from
       the last one before f that lists every live body (rollfric's
       recordings list all of them in each frame: then only f itself). */
    function Track(rec) {
        var nb = rec.bodies.length;
        this.rec = rec;
        this.pose = new Float32Array(7 * nb);  /* at frame this.at */
        this.known = new Uint8Array(nb);
        this.at = -1;
        this.out = new Float32Array(7 * nb);   /* interpolated */
        this.frame = 0;                        /* of the last evaluate */
        this.t0 = rec.frames.length ? rec.frames[0].time : 0;
        this.t1 = rec.frames.length ?
            rec.frames[rec.frames.length - 1].time : 0;
    }

    /* The last frame at or before t (0 before the first). */
    Track.prototype.frameAt = function (t) {
        var frames = this.rec.frames;
        var lo = 0, hi = frames.length - 1;
        if (hi < 0 || t <= frames[0].time) {
            return 0;
        }
        while (lo < hi) {
            var mid = (lo + hi + 1) >> 1;
            if (frames[mid].time <= t) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    };

    Track.prototype.applyTo = function (f) {
        var frames = this.rec.frames;
        if (f === this.at || f >= frames.length) {
            return;
        }
        var start = f > this.at && this.at >= 0 ? this.at + 1 : 0;
        if (start === 0) {
            this.known.fill(0);
        }
        var b = f;
        while (b > start && !frames[b].full) {
            --b;
        }
        for (; b <= f; ++b) {
            var fr = frames[b];
            for (var k = 0; k < fr.n; ++k) {
                var i = fr.body[k];
                for (var c = 0; c < 7; ++c) {
                    this.pose[7 * i + c] = fr.tf[7 * k + c];
                }
                this.known[i] = 1;
            }
        }
        this.at = f;
    };

    /* Whether body i is in the world at frame f (declared, listed once,
       not gone). */
    Track.prototype.visible = function (i, f) {
        var body = this.rec.bodies[i];
        if (body.firstFrame < 0) { /* never listed: a static body drawn at
                                      the origin (its parts' frames) */
            return body.isStatic && body.goneFrame < 0;
        }
        return body.firstFrame <= f && (body.goneFrame < 0 ||
            f < body.goneFrame) && this.known[i] === 1;
    };

    /* Fills this.out with the poses at time t, interpolated between the
       frames around it (positions linearly, quaternions normalised
       linearly: frames are close together); returns the frame index. */
    Track.prototype.evaluate = function (t) {
        var frames = this.rec.frames;
        if (frames.length === 0) {
            return 0;
        }
        var f = this.frameAt(t);
        this.applyTo(f);
        var out = this.out;
        out.set(this.pose);
        for (var i = 0; i < this.rec.bodies.length; ++i) {
            if (!this.known[i]) { /* identity */
                out[7 * i + 6] = 1;
            }
        }
        var next = frames[f + 1];
        if (next !== undefined && t > frames[f].time &&
            next.time > frames[f].time) {
            var a = Math.min(1, (t - frames[f].time) /
                (next.time - frames[f].time));
            for (var k = 0; k < next.n; ++k) {
                var j = 7 * next.body[k], m = 7 * k;
                if (!this.known[next.body[k]]) {
                    continue;
                }
                for (var c = 0; c < 3; ++c) {
                    out[j + c] += a * (next.tf[m + c] - out[j + c]);
                }
                var dot = 0;
                for (c = 3; c < 7; ++c) {
                    dot += out[j + c] * next.tf[m + c];
                }
                var sign = dot < 0 ? -1 : 1, norm = 0;
                for (c = 3; c < 7; ++c) {
                    out[j + c] += a * (sign * next.tf[m + c] - out[j + c]);
                    norm += out[j + c] * out[j + c];
                }
                norm = norm > 0 ? 1 / Math.sqrt(norm) : 1;
                for (c = 3; c < 7; ++c) {
                    out[j + c] *= norm;
                }
            }
        }
        this.frame = f;
        return f;
    };

    /* ---- shapes ---- */

    /* Colours by shape kind (the same on both sides), static bodies grey. */
    var KIND_COLOR = [0x888888, 0xe07b39, 0x4a90d9, 0x5cb85c, 0x9b59b6,
        0xd9534f, 0x17a2b8, 0xcccccc, 0x999999, 0xff00ff];
    var STATIC_COLOR = 0x9a9a9a;
    var INSTANCE_MIN = 8; /* equal parts drawn as one THREE.InstancedMesh */

    /* A checker texture (8 x 4 cells: 8 around a sphere's or a
       cylinder's axis, 4 along it): the material's colour and a darker
       shade, so that rotation shows (rolling is visible). */
    function checkerTexture() {
        var w = 8, h = 4, data = new Uint8Array(4 * w * h);
        for (var y = 0; y < h; ++y) {
            for (var x = 0; x < w; ++x) {
                var v = (x + y) % 2 ? 255 : 105, o = 4 * (y * w + x);
                data[o] = data[o + 1] = data[o + 2] = v;
                data[o + 3] = 255;
            }
        }
        var tex = new THREE.DataTexture(data, w, h, THREE.RGBAFormat);
        tex.magFilter = THREE.NearestFilter;
        tex.minFilter = THREE.NearestFilter;
        tex.generateMipmaps = false;
        tex.needsUpdate = true;
        return tex;
    }

    /* A grid cell (light, dark border) for static boxes, repeated once per
       grid spacing (boxGridUV): the ground and ramps show their scale and
       what rolls over them, as the planes' grids do. */
    function gridTexture() {
        var n = 32, data = new Uint8Array(4 * n * n);
        for (var y = 0; y < n; ++y) {
            for (var x = 0; x < n; ++x) {
                var v = x === 0 || y === 0 ? 150 : 225, o = 4 * (y * n + x);
                data[o] = data[o + 1] = data[o + 2] = v;
                data[o + 3] = 255;
            }
        }
        var tex = new THREE.DataTexture(data, n, n, THREE.RGBAFormat);
        tex.wrapS = tex.wrapT = THREE.RepeatWrapping;
        tex.magFilter = THREE.LinearFilter;
        tex.minFilter = THREE.LinearMipMapLinearFilter;
        tex.generateMipmaps = true;
        tex.needsUpdate = true;
        return tex;
    }

    /* Scales a BoxBufferGeometry's texture coordinates (0..1 per face) to
       one unit per `spacing` of the face's size (faces +x -x +y -y +z -z,
       4 vertices each). */
    function boxGridUV(geom, s, spacing) {
        var uv = geom.attributes.uv.array;
        var dims = [[s[2], s[1]], [s[2], s[1]], [s[0], s[2]], [s[0], s[2]],
            [s[0], s[1]], [s[0], s[1]]];
        for (var f = 0; f < 6; ++f) {
            for (var v = 0; v < 4; ++v) {
                var o = 2 * (4 * f + v);
                uv[o] *= 2 * dims[f][0] / spacing;
                uv[o + 1] *= 2 * dims[f][1] / spacing;
            }
        }
        geom.attributes.uv.needsUpdate = true;
        return geom;
    }

    /* Turns a geometry built along y to the part's axis (0 x, 1 y, 2 z). */
    function alongAxis(geom, axis) {
        if (axis === 0) {
            geom.rotateZ(-Math.PI / 2);
        } else if (axis === 2) {
            geom.rotateX(Math.PI / 2);
        }
        return geom;
    }

    /* Alternating shades per triangle (hulls, meshes: no texture
       coordinates), so that faces and their turning show. */
    function faceShades(geom) {
        var g = geom.index !== null ? geom.toNonIndexed() : geom;
        var n = g.attributes.position.count;
        var col = new Float32Array(3 * n);
        for (var i = 0; i < n; ++i) {
            var v = Math.floor(i / 3) % 2 ? 1.0 : 0.7;
            col[3 * i] = col[3 * i + 1] = col[3 * i + 2] = v;
        }
        g.setAttribute('color', new THREE.BufferAttribute(col, 3));
        g.computeVertexNormals();
        return g;
    }

    /* A capsule along y: a lathe of two quarter circles and a straight
       side (r111 has no CapsuleGeometry). */
    function capsuleGeometry(r, half, segments) {
        var pts = [], k = 8;
        for (var i = 0; i <= k; ++i) {
            var a = -Math.PI / 2 + (Math.PI / 2) * i / k;
            pts.push(new THREE.Vector2(r * Math.cos(a), -half + r * Math.sin(a)));
        }
        for (i = 0; i <= k; ++i) {
            a = (Math.PI / 2) * i / k;
            pts.push(new THREE.Vector2(r * Math.cos(a), half + r * Math.sin(a)));
        }
        pts[0].x = pts[pts.length - 1].x = 0;
        return new THREE.LatheBufferGeometry(pts, segments);
    }

    /* The geometry of a part (not a plane), in the part's frame, drawn
       `count` times: the more, the fewer triangles (10,000 spheres of 120
       triangles, 1.2 million, per view).  {geom, textured, points}. */
    function partGeometry(part, count) {
        var s = part.size;
        var seg = count >= 5000 ? 10 : count >= 500 ? 12 : count > 1 ? 20 : 28;
        switch (part.kind) {
        case SHAPE.SPHERE:
            return {geom: new THREE.SphereBufferGeometry(s[0], seg,
                Math.max(6, Math.round(seg * 0.6))), textured: true};
        case SHAPE.BOX:
        case SHAPE.OTHER:
            return {geom: new THREE.BoxBufferGeometry(2 * s[0], 2 * s[1],
                2 * s[2]), textured: true};
        case SHAPE.CYLINDER:
            return {geom: alongAxis(new THREE.CylinderBufferGeometry(s[0], s[0],
                2 * s[1], seg, 1), part.axis), textured: true};
        case SHAPE.CAPSULE:
            return {geom: alongAxis(capsuleGeometry(s[0], s[1], seg),
                part.axis), textured: true};
        case SHAPE.CONE:
            return {geom: alongAxis(new THREE.ConeBufferGeometry(s[0], s[1],
                seg, 1), part.axis), textured: true};
        case SHAPE.HULL:
        case SHAPE.MESH:
            return meshGeometry(part);
        }
        return null;
    }

    /* A hull or a mesh: its triangles when recorded; a hull without them,
       THREE.ConvexBufferGeometry of its points (ConvexGeometry.js), or
       the points themselves when that is missing or there are too few. */
    function meshGeometry(part) {
        var nv = part.verts.length / 3;
        if (part.tris.length > 0) {
            var g = new THREE.BufferGeometry();
            g.setAttribute('position', new THREE.BufferAttribute(part.verts, 3));
            g.setIndex(new THREE.BufferAttribute(part.tris, 1));
            return {geom: faceShades(g), shaded: true};
        }
        if (part.kind === SHAPE.HULL && nv >= 4 &&
            typeof THREE.ConvexBufferGeometry === 'function') {
            var pts = [];
            for (var i = 0; i < nv; ++i) {
                pts.push(new THREE.Vector3(part.verts[3 * i],
                    part.verts[3 * i + 1], part.verts[3 * i + 2]));
            }
            try {
                return {geom: faceShades(new THREE.ConvexBufferGeometry(pts)),
                    shaded: true};
            } catch (e) { /* degenerate (flat) point sets: points below */ }
        }
        var pg = new THREE.BufferGeometry();
        pg.setAttribute('position', new THREE.BufferAttribute(part.verts, 3));
        return {geom: pg, points: true};
    }

    function partKey(part) {
        var s = part.size;
        return part.kind + ':' + part.axis + ':' + s[0] + ':' + s[1] + ':' +
            s[2];
    }

    function instanceable(part) {
        return part.kind !== SHAPE.PLANE && part.kind !== SHAPE.HULL &&
            part.kind !== SHAPE.MESH;
    }

    /* Column-major 4x4 of a part's frame in its body's; null: identity. */
    function partMatrix(part) {
        var p = part.pos, q = part.quat;
        if (p[0] === 0 && p[1] === 0 && p[2] === 0 && q[0] === 0 &&
            q[1] === 0 && q[2] === 0) {
            return null;
        }
        var m = new THREE.Matrix4().compose(new THREE.Vector3(p[0], p[1], p[2]),
            new THREE.Quaternion(q[0], q[1], q[2], q[3]).normalize(),
            new THREE.Vector3(1, 1, 1));
        return m.elements;
    }

    /* out[o..o+16] = the pose (x y z qx qy qz qw at pose[j]) times the
       part's matrix (null: identity); column-major as three.js. */
    function writeMatrix(out, o, pose, j, pm) {
        var x = pose[j + 3], y = pose[j + 4], z = pose[j + 5], w = pose[j + 6];
        var r00 = 1 - 2 * (y * y + z * z), r01 = 2 * (x * y - w * z),
            r02 = 2 * (x * z + w * y);
        var r10 = 2 * (x * y + w * z), r11 = 1 - 2 * (x * x + z * z),
            r12 = 2 * (y * z - w * x);
        var r20 = 2 * (x * z - w * y), r21 = 2 * (y * z + w * x),
            r22 = 1 - 2 * (x * x + y * y);
        var tx = pose[j], ty = pose[j + 1], tz = pose[j + 2];
        if (pm === null) {
            out[o] = r00; out[o + 1] = r10; out[o + 2] = r20; out[o + 3] = 0;
            out[o + 4] = r01; out[o + 5] = r11; out[o + 6] = r21;
            out[o + 7] = 0;
            out[o + 8] = r02; out[o + 9] = r12; out[o + 10] = r22;
            out[o + 11] = 0;
            out[o + 12] = tx; out[o + 13] = ty; out[o + 14] = tz;
            out[o + 15] = 1;
            return;
        }
        for (var c = 0; c < 4; ++c) { /* column c of B = pm */
            var b0 = pm[4 * c], b1 = pm[4 * c + 1], b2 = pm[4 * c + 2],
                b3 = pm[4 * c + 3];
            out[o + 4 * c] = r00 * b0 + r01 * b1 + r02 * b2 + tx * b3;
            out[o + 4 * c + 1] = r10 * b0 + r11 * b1 + r12 * b2 + ty * b3;
            out[o + 4 * c + 2] = r20 * b0 + r21 * b1 + r22 * b2 + tz * b3;
            out[o + 4 * c + 3] = b3;
        }
    }

    /* The radius of a sphere around a body's origin holding its parts
       (planes: 0). */
    function bodyRadius(body) {
        var r = 0;
        body.parts.forEach(function (part) {
            var s = part.size, p = part.pos, e = 0;
            switch (part.kind) {
            case SHAPE.SPHERE: e = s[0]; break;
            case SHAPE.BOX:
            case SHAPE.OTHER: e = Math.hypot(s[0], s[1], s[2]); break;
            case SHAPE.CYLINDER: e = Math.hypot(s[0], s[1]); break;
            case SHAPE.CAPSULE: e = s[0] + s[1]; break;
            case SHAPE.CONE: e = Math.hypot(s[0], s[1] / 2); break;
            case SHAPE.HULL:
            case SHAPE.MESH:
                for (var i = 0; i < part.verts.length; i += 3) {
                    e = Math.max(e, Math.hypot(part.verts[i],
                        part.verts[i + 1], part.verts[i + 2]));
                }
                break;
            default: return; /* a plane */
            }
            r = Math.max(r, Math.hypot(p[0], p[1], p[2]) + e);
        });
        return r;
    }

    /* What the camera, the ground grids and the arrows are sized by:
       m.dynamic and m.fixed (THREE.Box3): where the moving and the static
       bodies are over the run (a sample of frames; planes left out);
       m.sizes: the parts' sizes (a radius, a half extent), of the moving
       bodies when there are any; m.fall: the moving bodies' mean
       acceleration over the first frames (m.falls of them), which shows
       which way gravity pulls when bodies are dropped. */
    function measure(track, m) {
        var rec = track.rec, frames = rec.frames;
        var stride = Math.max(1, Math.floor(frames.length / 24));
        var p = new THREE.Vector3(), q = new THREE.Vector3();
        var radius = rec.bodies.map(bodyRadius);
        for (var f = 0; f < frames.length; f += stride) {
            sample(f);
        }
        if (frames.length > 0) {
            sample(frames.length - 1);
        }
        function sample(fi) {
            var fr = frames[fi];
            for (var k = 0; k < fr.n; ++k) {
                var body = rec.bodies[fr.body[k]];
                if (body.parts[0].kind !== SHAPE.PLANE) {
                    var box = body.isStatic ? m.fixed : m.dynamic;
                    var r = radius[fr.body[k]];
                    p.set(fr.tf[7 * k], fr.tf[7 * k + 1], fr.tf[7 * k + 2]);
                    box.expandByPoint(q.copy(p).addScalar(r));
                    box.expandByPoint(q.copy(p).addScalar(-r));
                }
            }
        }
        var moving = rec.bodies.some(function (body) {
            return !body.isStatic;
        });
        rec.bodies.forEach(function (body) {
            if (moving && body.isStatic) {
                return;
            }
            body.parts.forEach(function (part) {
                var s = part.size;
                if (part.kind === SHAPE.SPHERE) {
                    m.sizes.push(s[0]);
                } else if (part.kind === SHAPE.BOX || part.kind === SHAPE.OTHER) {
                    m.sizes.push(Math.max(s[0], s[1], s[2]));
                } else if (part.kind >= SHAPE.CYLINDER &&
                    part.kind <= SHAPE.CONE) {
                    m.sizes.push(Math.max(s[0], s[1]));
                }
            });
        });
        /* second differences of the positions over frames 0..2 (frames
           listing the same bodies in the same order, as rollfric's do) */
        if (frames.length >= 3 && frames[0].n === frames[1].n &&
            frames[1].n === frames[2].n) {
            var h0 = frames[1].time - frames[0].time;
            var h1 = frames[2].time - frames[1].time;
            for (var k = 0; h0 > 0 && h1 > 0 && k < frames[0].n; ++k) {
                var i = frames[0].body[k];
                if (rec.bodies[i].isStatic || frames[1].body[k] !== i ||
                    frames[2].body[k] !== i) {
                    continue;
                }
                for (var c = 0; c < 3; ++c) {
                    var x0 = frames[0].tf[7 * k + c], x1 = frames[1].tf[7 * k + c],
                        x2 = frames[2].tf[7 * k + c];
                    m.fall.setComponent(c, m.fall.getComponent(c) +
                        ((x2 - x1) / h1 - (x1 - x0) / h0) / (0.5 * (h0 + h1)));
                }
                ++m.falls;
            }
        }
    }

    /* ---- View: one recording's scene and renderer ---- */

    function View(side, pane) {
        this.side = side;
        this.pane = pane;
        this.canvas = pane.querySelector('canvas');
        this.label = pane.querySelector('.label');
        this.info = pane.querySelector('.info');
        this.message = pane.querySelector('.message');
        this.tip = pane.querySelector('.tip');
        this.renderer = new THREE.WebGLRenderer({canvas: this.canvas,
            antialias: true});
        this.renderer.setPixelRatio(window.devicePixelRatio || 1);
        this.background = new THREE.Color(0xf2f4f7);
        this.track = null;
        this.scene = null;
        this.disposables = [];
    }

    View.prototype.clear = function (message) {
        this.disposables.forEach(function (d) {
            d.dispose();
        });
        this.disposables = [];
        this.track = null;
        this.scene = new THREE.Scene();
        this.scene.background = this.background;
        this.bodyObjects = [];
        this.instanced = [];
        this.pickable = []; /* what the mouse may point at: body groups
                               (userData.body) and instanced meshes
                               (userData.group) */
        this.arrows = null;
        this.paths = [];  /* {body, line, n}: buildPaths */
        this.edges = 0;   /* boxes drawn with their edges */
        if (this.tip) {
            this.tip.style.display = 'none';
        }
        this.message.textContent = message || '';
        this.info.textContent = '';
    };

    View.prototype.keep = function (d) {
        this.disposables.push(d);
        return d;
    };

    View.prototype.material = function (color, textured, opts) {
        var params = {color: color, side: THREE.DoubleSide};
        if (textured) {
            params.map = textured === 'grid' ? this.grid : this.checker;
        }
        if (opts && opts.shaded) {
            params.vertexColors = THREE.VertexColors;
            params.flatShading = true;
        }
        if (opts && opts.wire) {
            params.wireframe = true;
        }
        return this.keep(new THREE.MeshLambertMaterial(params));
    };

    /* Builds the scene of track's recording: body groups (one mesh per
       part), parts repeated INSTANCE_MIN times or more as InstancedMesh,
       planes as a large quad with a grid (world: the run's extent). */
    View.prototype.build = function (track, world) {
        this.clear('');
        var rec = track.rec, self = this, scene = this.scene;
        this.track = track;
        this.checker = this.keep(checkerTexture());
        this.grid = this.keep(gridTexture());
        this.grid.anisotropy = this.renderer.capabilities.getMaxAnisotropy();
        /* a few body sizes, a power of 10, at most ~400 cells a side */
        this.gridSpacing = Math.pow(10, Math.ceil(Math.log10(Math.max(
            2 * world.size, world.radius / 100))));
        scene.add(new THREE.HemisphereLight(0xffffff, 0x666666, 0.65));
        this.light = new THREE.DirectionalLight(0xffffff, 0.55);
        scene.add(this.light);
        scene.add(this.light.target);

        var counts = {};
        rec.bodies.forEach(function (body) {
            if (body.isStatic) {
                return;
            }
            body.parts.forEach(function (part) {
                if (instanceable(part)) {
                    var key = partKey(part);
                    counts[key] = (counts[key] || 0) + 1;
                }
            });
        });
        var groups = {};
        rec.bodies.forEach(function (body, i) {
            var obj = null;
            body.parts.forEach(function (part) {
                var key = partKey(part);
                if (!body.isStatic && instanceable(part) &&
                    counts[key] >= INSTANCE_MIN) {
                    var g = groups[key];
                    if (g === undefined) {
                        var shape = partGeometry(part, counts[key]);
                        var mesh = new THREE.InstancedMesh(
                            self.keep(shape.geom),
                            self.material(KIND_COLOR[part.kind], true,
                                {wire: part.kind === SHAPE.OTHER}),
                            counts[key]);
                        mesh.instanceMatrix.setUsage(THREE.DynamicDrawUsage);
                        mesh.frustumCulled = false; /* its bounds are one
                                                       instance's */
                        scene.add(mesh);
                        g = groups[key] = {mesh: mesh, body: [], part: []};
                        mesh.userData.group = g;
                        self.instanced.push(g);
                        self.pickable.push(mesh);
                    }
                    g.body.push(i);
                    g.part.push(partMatrix(part));
                    return;
                }
                var m = part.kind === SHAPE.PLANE ?
                    self.planeObject(part, world) :
                    self.partObject(part, body.isStatic);
                if (obj === null) {
                    obj = new THREE.Group();
                    obj.userData.body = i;
                    scene.add(obj);
                    self.pickable.push(obj);
                }
                obj.add(m);
            });
            self.bodyObjects.push(obj);
        });
        this.buildArrows(world);
        this.buildPaths();
        this.label.title = rec.notes.join('; ');
    };

    var PATH_MAX = 64; /* bodies whose paths are drawn, at most */

    /* Each moving body's path over the whole run, a line in its colour
       through its recorded positions: named bodies first, then those that
       go farthest from where they appear (more than 1 mm), at most
       PATH_MAX.  Shown with the 'paths' box (show.paths). */
    View.prototype.buildPaths = function () {
        var rec = this.track.rec, pts = rec.bodies.map(function () {
            return [];
        });
        rec.frames.forEach(function (fr) {
            for (var k = 0; k < fr.n; ++k) {
                var p = pts[fr.body[k]];
                p.push(fr.tf[7 * k], fr.tf[7 * k + 1], fr.tf[7 * k + 2]);
            }
        });
        var cand = [];
        rec.bodies.forEach(function (body, i) {
            var p = pts[i], far = 0;
            if (body.isStatic || p.length < 6) {
                return;
            }
            for (var j = 3; j < p.length; j += 3) {
                var dx = p[j] - p[0], dy = p[j + 1] - p[1], dz = p[j + 2] - p[2];
                far = Math.max(far, dx * dx + dy * dy + dz * dz);
            }
            if (far > 1e-6) {
                cand.push({i: i, named: body.name !== '', far: far});
            }
        });
        cand.sort(function (a, b) {
            return a.named !== b.named ? (a.named ? -1 : 1) :
                b.far - a.far || a.i - b.i;
        });
        var self = this;
        cand.slice(0, PATH_MAX).forEach(function (c) {
            var body = rec.bodies[c.i], p = pts[c.i];
            var kind = body.parts.length ? body.parts[0].kind : SHAPE.OTHER;
            var g = self.keep(new THREE.BufferGeometry());
            g.setAttribute('position', new THREE.BufferAttribute(
                new Float32Array(p), 3));
            var color = new THREE.Color(KIND_COLOR[kind]).multiplyScalar(0.7);
            var line = new THREE.Line(g, self.keep(new THREE.LineBasicMaterial({
                color: color})));
            line.visible = show.paths;
            self.scene.add(line);
            self.paths.push({body: c.i, line: line, n: p.length / 3});
        });
    };

    View.prototype.showPaths = function (on) {
        this.paths.forEach(function (p) {
            p.line.visible = on;
        });
    };

    /* A part drawn alone: a moving one in its kind's colour with the
       checker; a static one grey, a box with the grid, others plain. */
    View.prototype.partObject = function (part, isStatic) {
        var shape = partGeometry(part, 1);
        var color = isStatic ? STATIC_COLOR : KIND_COLOR[part.kind];
        if (isStatic && shape.textured) {
            shape.textured = part.kind === SHAPE.BOX ? 'grid' : false;
            if (part.kind === SHAPE.BOX) {
                boxGridUV(shape.geom, part.size, this.gridSpacing);
                color = 0xffffff;
            }
        }
        var obj;
        if (shape.points) {
            obj = new THREE.Points(this.keep(shape.geom),
                this.keep(new THREE.PointsMaterial({color: color, size: 4,
                    sizeAttenuation: false})));
        } else {
            obj = new THREE.Mesh(this.keep(shape.geom), this.material(color,
                shape.textured, {shaded: shape.shaded,
                    wire: part.kind === SHAPE.OTHER}));
        }
        if (part.kind === SHAPE.BOX && !shape.points) {
            /* its edges, so that boxes stacked face to face read as
               boxes, not as one column */
            obj.add(new THREE.LineSegments(
                this.keep(new THREE.EdgesGeometry(shape.geom)),
                this.keep(new THREE.LineBasicMaterial({color: 0x303030}))));
            this.edges++;
        }
        obj.position.set(part.pos[0], part.pos[1], part.pos[2]);
        obj.quaternion.set(part.quat[0], part.quat[1], part.quat[2],
            part.quat[3]);
        return obj;
    };

    /* A plane n . x = d (in its body's frame): a quad with a grid, centred
       where the run's extent projects onto it, sized to cover it. */
    View.prototype.planeObject = function (part, world) {
        var n = new THREE.Vector3(part.size[0], part.size[1], part.size[2]);
        if (n.lengthSq() === 0) {
            n.set(0, 1, 0);
        }
        n.normalize();
        var d = part.size[3];
        var size = Math.max(10 * world.size, 3 * world.radius);
        var spacing = Math.max(this.gridSpacing, Math.pow(10, Math.ceil(
            Math.log10(size / 400))));
        var divisions = Math.max(2, Math.round(size / spacing));
        size = divisions * spacing;
        var centre = world.centre.clone();
        centre.addScaledVector(n, d - n.dot(centre));
        var group = new THREE.Group();
        var quad = new THREE.Mesh(this.keep(new THREE.PlaneBufferGeometry(size,
            size)), this.keep(new THREE.MeshLambertMaterial({color: 0xdedede,
            side: THREE.DoubleSide, polygonOffset: true,
            polygonOffsetFactor: 1, polygonOffsetUnits: 1})));
        quad.quaternion.setFromUnitVectors(new THREE.Vector3(0, 0, 1), n);
        var grid = new THREE.GridHelper(size, divisions, 0x8a8a8a, 0xb8b8b8);
        this.keep(grid.geometry);
        this.keep(grid.material);
        grid.quaternion.setFromUnitVectors(new THREE.Vector3(0, 1, 0), n);
        group.add(quad, grid);
        group.position.copy(centre);
        return group;
    };

    /* Contact arrows: normal force (from the point along the normal) and
       rolling torque (from the point along the torque vector), as line
       segments dark at the point and bright at the tip; scales shared by
       both views (world.forceScale, world.torqueScale). */
    View.prototype.buildArrows = function (world) {
        var max = 0;
        this.track.rec.frames.forEach(function (fr) {
            if (fr.contacts !== null) {
                max = Math.max(max, fr.contacts.n);
            }
        });
        if (max === 0) {
            return;
        }
        var self = this;
        function lines(base, tip) {
            var g = self.keep(new THREE.BufferGeometry());
            var pos = new Float32Array(6 * max), col = new Float32Array(6 * max);
            for (var i = 0; i < max; ++i) {
                col.set(base, 6 * i);
                col.set(tip, 6 * i + 3);
            }
            g.setAttribute('position', new THREE.BufferAttribute(pos, 3)
                .setUsage(THREE.DynamicDrawUsage));
            g.setAttribute('color', new THREE.BufferAttribute(col, 3));
            g.setDrawRange(0, 0);
            var l = new THREE.LineSegments(g, self.keep(
                new THREE.LineBasicMaterial({vertexColors: THREE.VertexColors,
                    depthTest: false})));
            l.frustumCulled = false;
            l.renderOrder = 1;
            l.visible = false;
            self.scene.add(l);
            return l;
        }
        this.arrows = {
            force: lines([0.35, 0.0, 0.2], [1.0, 0.0, 0.6]),  /* magenta */
            torque: lines([0.0, 0.1, 0.45], [0.2, 0.6, 1.0])  /* blue */
        };
    };

    /* Moves everything to track's interpolated poses at frame f. */
    View.prototype.update = function (f, show) {
        var track = this.track;
        if (track === null) {
            return;
        }
        var pose = track.out, i, j;
        for (i = 0; i < this.bodyObjects.length; ++i) {
            var obj = this.bodyObjects[i];
            if (obj === null) {
                continue;
            }
            obj.visible = track.visible(i, f);
            if (obj.visible) {
                j = 7 * i;
                obj.position.set(pose[j], pose[j + 1], pose[j + 2]);
                obj.quaternion.set(pose[j + 3], pose[j + 4], pose[j + 5],
                    pose[j + 6]);
            }
        }
        for (var g = 0; g < this.instanced.length; ++g) {
            var grp = this.instanced[g], arr = grp.mesh.instanceMatrix.array;
            for (var k = 0; k < grp.body.length; ++k) {
                i = grp.body[k];
                if (track.visible(i, f)) {
                    writeMatrix(arr, 16 * k, pose, 7 * i, grp.part[k]);
                } else {
                    arr.fill(0, 16 * k, 16 * k + 16); /* scale 0: hidden */
                }
            }
            grp.mesh.instanceMatrix.needsUpdate = true;
        }
        this.updateArrows(f, show);
    };

    View.prototype.updateArrows = function (f, show) {
        if (this.arrows === null) {
            return;
        }
        var fr = this.track.rec.frames[f];
        var ct = fr !== undefined ? fr.contacts : null;
        var world = show.world, self = this, bodies = this.track.rec.bodies;
        /* the recording gives the force and torque on body a; where a is
           static (the ground) and b moves, b's (the opposite) is drawn */
        function sign(k) {
            var a = ct.a[k], b = ct.b[k];
            return (a < 0 || bodies[a].isStatic) && b >= 0 &&
                !bodies[b].isStatic ? -1 : 1;
        }
        function fill(line, on, offset, scale) {
            line.visible = on && ct !== null;
            if (!line.visible) {
                return;
            }
            var pos = line.geometry.attributes.position.array, m = 0;
            for (var k = 0; k < ct.n; ++k) {
                var v = ct.v, o = 10 * k, len, dx, dy, dz, sg = sign(k);
                if (offset === 6) { /* force along the normal */
                    len = sg * v[o + 6] * scale;
                    dx = v[o + 3] * len;
                    dy = v[o + 4] * len;
                    dz = v[o + 5] * len;
                } else {
                    dx = sg * v[o + 7] * scale;
                    dy = sg * v[o + 8] * scale;
                    dz = sg * v[o + 9] * scale;
                }
                len = Math.sqrt(dx * dx + dy * dy + dz * dz);
                if (!(len > 0)) {
                    continue;
                }
                var clamp = Math.min(1, world.arrowMax / len);
                pos[6 * m] = v[o];
                pos[6 * m + 1] = v[o + 1];
                pos[6 * m + 2] = v[o + 2];
                pos[6 * m + 3] = v[o] + dx * clamp;
                pos[6 * m + 4] = v[o + 1] + dy * clamp;
                pos[6 * m + 5] = v[o + 2] + dz * clamp;
                ++m;
            }
            line.geometry.setDrawRange(0, 2 * m);
            line.geometry.attributes.position.needsUpdate = true;
        }
        fill(this.arrows.force, show.forces, 6, world.forceScale);
        fill(this.arrows.torque, show.torques, 7, world.torqueScale);
    };

    View.prototype.resize = function (w, h) {
        this.renderer.setSize(w, h, false);
    };

    View.prototype.render = function (camera, target) {
        this.light.position.copy(camera.position);
        this.light.target.position.copy(target);
        this.renderer.render(this.scene, camera);
    };

    /* The body drawn at (x, y), CSS pixels from the canvas's top left,
       seen by camera: its index in the recording's bodies, or -1.  The
       nearest surface hit (lines, grids and points are not bodies). */
    View.prototype.pick = function (camera, x, y) {
        if (this.track === null) {
            return -1;
        }
        var w = Math.max(1, this.canvas.clientWidth),
            h = Math.max(1, this.canvas.clientHeight);
        this.raycaster = this.raycaster || new THREE.Raycaster();
        camera.updateMatrixWorld();
        this.raycaster.setFromCamera(new THREE.Vector2(2 * x / w - 1,
            1 - 2 * y / h), camera);
        var hits = this.raycaster.intersectObjects(this.pickable, true);
        for (var i = 0; i < hits.length; ++i) {
            var o = hits[i].object;
            if (o.isInstancedMesh && hits[i].instanceId !== undefined) {
                return o.userData.group.body[hits[i].instanceId];
            }
            for (var q = o.isMesh ? o : null; q !== null; q = q.parent) {
                if (q.userData.body !== undefined) {
                    return q.userData.body;
                }
            }
        }
        return -1;
    };

    /* What the tooltip says of a body: its recorded name and id. */
    function bodyLabel(body) {
        return (body.name !== '' ? body.name : 'unnamed body') + ' (id ' +
            body.id + (body.isStatic ? ', static)' : ')');
    }

    /* Shows the name of the body under the mouse at (x, y) in the view's
       tooltip, or hides it. */
    View.prototype.hover = function (camera, x, y) {
        var i = this.pick(camera, x, y);
        if (i < 0) {
            this.tip.style.display = 'none';
            return;
        }
        this.tip.textContent = bodyLabel(this.track.rec.bodies[i]);
        this.tip.style.left = Math.round(x + 14) + 'px';
        this.tip.style.top = Math.round(y + 10) + 'px';
        this.tip.style.display = 'block';
    };

    /* ---- Plot: a plot of time on a canvas, with a cursor ---- */

    /* Colours of the report's gnuplot plots (report_plot.c): a run's k-th
       column (view 0 wide, view 1 narrow on top), the k-th reference
       (dashed). */
    var PLOT_COLORS = [['#d62728', '#ff7f0e', '#8c564b', '#e377c2'],
        ['#1f77b4', '#2ca02c', '#17becf', '#9467bd']];
    var REF_COLORS = ['#000000', '#555555', '#7f7f7f', '#333333'];

    /* About n ticks over [lo, hi] at 1, 2 or 5 times a power of ten. */
    function niceTicks(lo, hi, n) {
        var span = hi - lo;
        if (!(span > 0)) {
            return [lo];
        }
        var raw = span / n, mag = Math.pow(10, Math.floor(Math.log10(raw)));
        var r = raw / mag;
        var step = (r < 1.5 ? 1 : r < 3 ? 2 : r < 7 ? 5 : 10) * mag;
        var out = [];
        for (var k = Math.ceil(lo / step - 1e-9); k * step <= hi + 1e-9 * step;
            ++k) {
            out.push(k === 0 ? 0 : k * step);
        }
        return out;
    }

    /* Ticks of a log axis: the powers of ten in [lo, hi] (else its ends). */
    function logTicks(lo, hi) {
        var out = [];
        for (var e = Math.ceil(Math.log10(lo) - 1e-9);
            Math.pow(10, e) <= hi * (1 + 1e-9); ++e) {
            out.push(Math.pow(10, e));
        }
        return out.length >= 2 ? out : [lo, hi];
    }

    function tickText(v) {
        return String(Number(v.toPrecision(6)));
    }

    /* A plot of time (spec: view-data.js's "live": title, xlabel, ylabel,
       logx, curves [{label, side, ref, k, points, x, y}], null: a gap)
       in box: a canvas and, over it, the cursor (a thin element). */
    function Plot(spec, box) {
        this.spec = spec;
        this.canvas = box.querySelector('canvas');
        this.cursor = box.querySelector('.cursor');
        this.area = null; /* the data area, CSS pixels in the canvas */
        this.x0 = 0;      /* the x axis' range */
        this.x1 = 1;
        this.ypx = null;  /* y -> pixel, set by draw */
    }

    /* The pixel of x on the x axis (clamped to the data area). */
    Plot.prototype.xPixel = function (x) {
        var a = this.area, f;
        if (this.spec.logx) {
            f = x > 0 ? Math.log(x / this.x0) / Math.log(this.x1 / this.x0) : 0;
        } else {
            f = (x - this.x0) / (this.x1 - this.x0);
        }
        return a.left + Math.max(0, Math.min(1, f)) * (a.right - a.left);
    };

    /* The ranges of the data; a time axis also covers [t0, t1], the
       runs' time (the views' clock). */
    Plot.prototype.ranges = function (t0, t1) {
        var logx = this.spec.logx, xr = [Infinity, -Infinity],
            yr = [Infinity, -Infinity];
        this.spec.curves.forEach(function (c) {
            for (var i = 0; i < c.x.length; ++i) {
                var x = c.x[i], y = c.y[i];
                if (x === null || (logx && !(x > 0))) {
                    continue;
                }
                xr[0] = Math.min(xr[0], x);
                xr[1] = Math.max(xr[1], x);
                if (y !== null) {
                    yr[0] = Math.min(yr[0], y);
                    yr[1] = Math.max(yr[1], y);
                }
            }
        });
        if (!logx && t1 >= t0) {
            xr[0] = Math.min(xr[0], t0);
            xr[1] = Math.max(xr[1], t1);
        }
        if (!(xr[0] < xr[1])) {
            var x0 = isFinite(xr[0]) ? xr[0] : logx ? 1 : 0;
            xr = logx ? [x0 / 2, x0 * 2] : [x0 - 0.5, x0 + 0.5];
        }
        if (!(yr[0] <= yr[1])) {
            yr = [0, 1];
        }
        /* 5% of room above and below, as the report's plots */
        var pad = (yr[1] - yr[0]) * 0.05 ||
            (Math.abs(yr[0]) > 0 ? 0.1 * Math.abs(yr[0]) : 1);
        return {x: xr, y: [yr[0] - pad, yr[1] + pad]};
    };

    /* Draws the plot at the canvas's CSS size: frame, grid, ticks, labels,
       title, curves and legend (beside the data area, on the right);
       t0, t1: the runs' time, which the x axis covers. */
    Plot.prototype.draw = function (t0, t1) {
        var c = this.canvas, spec = this.spec;
        var dpr = window.devicePixelRatio || 1;
        var W = Math.max(240, c.clientWidth), H = Math.max(160, c.clientHeight);
        c.width = Math.round(W * dpr);
        c.height = Math.round(H * dpr);
        var g = c.getContext('2d');
        g.setTransform(dpr, 0, 0, dpr, 0, 0);
        g.fillStyle = '#ffffff';
        g.fillRect(0, 0, W, H);
        g.font = '11px sans-serif';
        var rg = this.ranges(t0, t1);
        this.x0 = rg.x[0];
        this.x1 = rg.x[1];
        var xt = spec.logx ? logTicks(rg.x[0], rg.x[1]) :
            niceTicks(rg.x[0], rg.x[1], Math.max(3, Math.floor(W / 90)));
        var yt = niceTicks(rg.y[0], rg.y[1], 6);
        var ylabW = 0, legW = 0;
        yt.forEach(function (v) {
            ylabW = Math.max(ylabW, g.measureText(tickText(v)).width);
        });
        spec.curves.forEach(function (cv) {
            legW = Math.max(legW, g.measureText(cv.label).width);
        });
        legW = Math.min(legW + 40, 0.4 * W);
        var a = this.area = {left: Math.round(24 + ylabW + 6),
            right: Math.round(W - legW - 12), top: 28, bottom: H - 40};
        this.ypx = function (y) {
            return a.bottom - (y - rg.y[0]) / (rg.y[1] - rg.y[0]) *
                (a.bottom - a.top);
        };
        this.axes(g, xt, yt, W, H);
        this.curves(g);
        this.legend(g, a.right + 10, a.top);
    };

    /* The grid, the ticks and their labels, the frame, the title and the
       axes' labels. */
    Plot.prototype.axes = function (g, xt, yt, W, H) {
        var self = this, a = this.area, spec = this.spec;
        g.lineWidth = 1;
        g.strokeStyle = '#e4e4e4';
        g.fillStyle = '#333333';
        g.textAlign = 'center';
        g.textBaseline = 'top';
        xt.forEach(function (v) {
            var px = Math.min(a.right - 0.5,
                Math.round(self.xPixel(v)) + 0.5);
            g.beginPath();
            g.moveTo(px, a.top);
            g.lineTo(px, a.bottom);
            g.stroke();
            g.fillText(tickText(v), px, a.bottom + 4);
        });
        g.textAlign = 'right';
        g.textBaseline = 'middle';
        yt.forEach(function (v) {
            var py = Math.max(a.top + 0.5, Math.round(self.ypx(v)) + 0.5);
            g.beginPath();
            g.moveTo(a.left, py);
            g.lineTo(a.right, py);
            g.stroke();
            g.fillText(tickText(v), a.left - 4, py);
        });
        g.strokeStyle = '#555555';
        g.strokeRect(a.left + 0.5, a.top + 0.5, a.right - a.left - 1,
            a.bottom - a.top - 1);
        g.textAlign = 'center';
        g.textBaseline = 'alphabetic';
        g.fillText(spec.xlabel || '', (a.left + a.right) / 2, H - 8);
        g.font = 'bold 13px sans-serif';
        g.fillText(spec.title || '', W / 2, 18);
        g.font = '11px sans-serif';
        g.save();
        g.translate(13, (a.top + a.bottom) / 2);
        g.rotate(-Math.PI / 2);
        g.fillText(spec.ylabel || '', 0, 0);
        g.restore();
    };

    /* The curves, clipped to the data area: a line through the points (a
       null breaks it), and the points themselves where marked. */
    Plot.prototype.curves = function (g) {
        var self = this, a = this.area, logx = this.spec.logx;
        function usable(cv, i) {
            return cv.x[i] !== null && cv.y[i] !== null &&
                (!logx || cv.x[i] > 0);
        }
        g.save();
        g.beginPath();
        g.rect(a.left, a.top, a.right - a.left, a.bottom - a.top);
        g.clip();
        this.spec.curves.forEach(function (cv) {
            var pen = false, i;
            self.stroke(g, cv);
            g.beginPath();
            for (i = 0; i < cv.x.length; ++i) {
                if (!usable(cv, i)) {
                    pen = false;
                    continue;
                }
                var px = self.xPixel(cv.x[i]), py = self.ypx(cv.y[i]);
                if (pen) {
                    g.lineTo(px, py);
                } else {
                    g.moveTo(px, py);
                }
                pen = true;
            }
            g.stroke();
            g.setLineDash([]);
            for (i = 0; cv.points && i < cv.x.length; ++i) {
                if (usable(cv, i)) {
                    g.beginPath();
                    g.arc(self.xPixel(cv.x[i]), self.ypx(cv.y[i]), 2.5, 0,
                        2 * Math.PI);
                    g.fill();
                }
            }
        });
        g.restore();
    };

    /* Sets the line style (and fill) of curve cv. */
    Plot.prototype.stroke = function (g, cv) {
        var col = cv.ref ? REF_COLORS[cv.k & 3] :
            PLOT_COLORS[cv.side & 1][cv.k & 3];
        g.strokeStyle = col;
        g.fillStyle = col;
        /* view 0 wider, under view 1's: both show where they agree */
        g.lineWidth = cv.ref ? 1.5 : cv.side === 0 ? 3.5 : 1.5;
        g.setLineDash(cv.ref ? [6 + 3 * cv.k, 4] : []);
    };

    /* The legend at (x, y): a line of each curve's style and its label. */
    Plot.prototype.legend = function (g, x, y) {
        var self = this, n = this.spec.curves.length, w = 0;
        this.spec.curves.forEach(function (cv) {
            w = Math.max(w, g.measureText(cv.label).width);
        });
        g.fillStyle = '#ffffff';
        g.strokeStyle = '#999999';
        g.lineWidth = 1;
        g.setLineDash([]);
        g.fillRect(x, y, w + 38, 16 * n + 8);
        g.strokeRect(x + 0.5, y + 0.5, w + 37, 16 * n + 7);
        g.textAlign = 'left';
        g.textBaseline = 'middle';
        this.spec.curves.forEach(function (cv, i) {
            var ly = y + 12 + 16 * i;
            self.stroke(g, cv);
            g.beginPath();
            g.moveTo(x + 6, ly);
            g.lineTo(x + 28, ly);
            g.stroke();
            g.fillStyle = '#333333';
            g.fillText(cv.label, x + 33, ly);
        });
    };

    /* Puts the cursor at time t (on the x axis, clamped to it). */
    Plot.prototype.setTime = function (t) {
        if (this.area === null) {
            return;
        }
        var a = this.area, px = this.xPixel(t);
        this.cursor.style.left = (px - 1) + 'px'; /* 2 px wide */
        this.cursor.style.top = a.top + 'px';
        this.cursor.style.height = (a.bottom - a.top) + 'px';
        this.cursor.style.display = 'block';
    };

    /* ---- the page ---- */

    var data = window.RF_VIEW;
    var labels = data && data.labels ? data.labels : ['A', 'B'];
    var views = [];
    var camera = null, controls = [], target = null;
    var world = null;        /* the shown pair's extent and scales */
    var clock = {t: 0, t0: 0, t1: 0, playing: false, last: 0};
    var show = {forces: false, torques: false, paths: true, world: null};
    var current = -1;        /* index of the shown pair in data.scenes */
    var plots = [];          /* the shown pair's plots: {title, png,
                                plot: a Plot, or null for a PNG} */
    var ready = false, readyWaiters = [];
    var renderQueued = false;
    var SLIDER_STEPS = 10000;
    /* milliseconds: the last seek's pose update and render (both views),
       the last pair's loading (reading and building) */
    var timing = {update: 0, render: 0, load: 0};

    function setStatus(text, isError) {
        var s = $('status');
        s.textContent = text;
        s.className = isError ? 'error' : '';
    }

    function fail(text) {
        setStatus(text, true);
        Array.prototype.forEach.call(document.querySelectorAll('.message'),
            function (m) {
                m.textContent = text;
            });
        console.error('rfview: ' + text);
    }

    function fmtTime(t) {
        return (Math.abs(t) < 1e-12 ? 0 : t).toFixed(3) + ' s';
    }

    /* Loads a recording script once: cb(error or null). */
    function loadRecording(name, cb) {
        window.RF_RECORDINGS = window.RF_RECORDINGS || {};
        if (typeof RF_RECORDINGS[name] === 'string') {
            cb(null);
            return;
        }
        var s = document.createElement('script');
        s.src = encodeURI(name) + '.js';
        s.charset = 'utf-8';
        s.onload = function () {
            cb(typeof RF_RECORDINGS[name] === 'string' ? null :
                name + '.js does not hold the recording');
        };
        s.onerror = function () {
            cb('cannot load ' + name + '.js (written by rfdemo beside the page)');
        };
        document.head.appendChild(s);
    }

    /* Which way is up: the chosen axis, or (auto) the normal of the first
       plane if it is along an axis, else against the acceleration of the
       bodies at the start if they fall along an axis, else y. */
    function upVector(tracks) {
        var choice = $('up').value;
        if (choice !== 'auto') {
            return new THREE.Vector3(choice === 'x' ? 1 : 0,
                choice === 'y' ? 1 : 0, choice === 'z' ? 1 : 0);
        }
        for (var t = 0; t < tracks.length; ++t) {
            var bodies = tracks[t] ? tracks[t].rec.bodies : [];
            for (var b = 0; b < bodies.length; ++b) {
                var part = bodies[b].parts[0];
                if (part.kind === SHAPE.PLANE) {
                    var s = part.size;
                    for (var a = 0; a < 3; ++a) {
                        if (Math.abs(s[a]) > 0.99) {
                            var v = new THREE.Vector3(0, 0, 0);
                            v.setComponent(a, s[a] > 0 ? 1 : -1);
                            return v;
                        }
                    }
                }
            }
        }
        /* bodies dropped: against their acceleration, when it is mostly
           along an axis */
        var g = world !== null ? world.fall : null;
        if (g !== null && g.length() > 2) {
            for (a = 0; a < 3; ++a) {
                if (Math.abs(g.getComponent(a)) > 0.9 * g.length()) {
                    var u = new THREE.Vector3(0, 0, 0);
                    u.setComponent(a, g.getComponent(a) < 0 ? 1 : -1);
                    return u;
                }
            }
        }
        return new THREE.Vector3(0, 1, 0);
    }

    /* One camera for both views, and one OrbitControls per canvas on it
       sharing one target: dragging either view turns both. */
    function makeControls(up) {
        controls.forEach(function (c) {
            c.dispose();
        });
        camera.up.copy(up);
        controls = views.map(function (v) {
            var c = new THREE.OrbitControls(camera, v.canvas);
            c.target = target;
            c.screenSpacePanning = true;
            c.enableKeys = false; /* the arrow keys step frames here */
            c.addEventListener('change', requestRender);
            return c;
        });
    }

    /* The static bodies (but planes) of the shown runs as world boxes, at
       the current time: what may hide the run from the camera. */
    function blockers() {
        var out = [];
        views.forEach(function (v) {
            if (v.track === null) {
                return;
            }
            v.track.rec.bodies.forEach(function (body, i) {
                var obj = v.bodyObjects[i];
                var plane = body.parts.some(function (part) {
                    return part.kind === SHAPE.PLANE;
                });
                if (body.isStatic && !plane && obj && obj.visible) {
                    out.push(new THREE.Box3().setFromObject(obj));
                }
            });
        });
        return out;
    }

    /* Looks at the run across its longest horizontal extent, as close as
       it can while seeing all of it (each corner of its extent inside the
       field of view): from above, else (a static body, a ceiling, in the
       way) level with it, else from below. */
    function resetCamera() {
        var up = camera.up.clone().normalize();
        var size = world.box.getSize(new THREE.Vector3());
        var axes = [new THREE.Vector3(1, 0, 0), new THREE.Vector3(0, 1, 0),
            new THREE.Vector3(0, 0, 1)].filter(function (a) {
            return Math.abs(a.dot(up)) < 0.5;
        });
        var long = axes[0], across = axes[1] || new THREE.Vector3(0, 0, 1);
        if (axes.length > 1 && Math.abs(size.dot(axes[1])) >
            Math.abs(size.dot(axes[0]))) {
            long = axes[1];
            across = axes[0];
        }
        var walls = blockers(), ray = new THREE.Ray(), hit = new THREE.Vector3();
        var first = null;
        [0.55, 0.08, -0.45].some(function (height) {
            var dir = new THREE.Vector3().addScaledVector(long, 0.3)
                .addScaledVector(up, height).addScaledVector(across, 1)
                .normalize();
            var dist = fitDistance(dir, up);
            var pos = world.centre.clone().addScaledVector(dir, dist);
            first = first || pos;
            ray.set(pos, dir.clone().negate());
            var hidden = walls.some(function (box) {
                return !box.containsPoint(world.centre) &&
                    ray.intersectBox(box, hit) !== null &&
                    hit.distanceTo(pos) < 0.9 * dist;
            });
            if (!hidden) {
                first = pos;
            }
            return !hidden;
        });
        target.copy(world.centre);
        camera.position.copy(first);
        camera.lookAt(target);
        controls.forEach(function (c) {
            c.update();
        });
        renderNow();
    }

    /* The view from above: along the up axis (a hair off it, which the
       orbit controls need), the whole run in sight. */
    function topCamera() {
        var up = camera.up.clone().normalize();
        var any = Math.abs(up.x) < 0.9 ? new THREE.Vector3(1, 0, 0) :
            new THREE.Vector3(0, 0, 1);
        var side = any.addScaledVector(up, -any.dot(up)).normalize();
        var dir = up.clone().addScaledVector(side, 1e-3).normalize();
        target.copy(world.centre);
        camera.position.copy(world.centre).addScaledVector(dir,
            fitDistance(dir, up));
        camera.lookAt(target);
        controls.forEach(function (c) {
            c.update();
        });
        renderNow();
    }

    /* How far along dir (from the run's centre) the camera sees all of
       the run's extent. */
    function fitDistance(dir, up) {
        var tanV = Math.tan(camera.fov * Math.PI / 360);
        var tanH = tanV * camera.aspect;
        var fwd = dir.clone().negate();
        var right = new THREE.Vector3().crossVectors(fwd, up).normalize();
        var upv = new THREE.Vector3().crossVectors(right, fwd);
        var dist = 0, c = new THREE.Vector3(), b = world.box;
        for (var i = 0; i < 8; ++i) {
            c.set(i & 1 ? b.max.x : b.min.x, i & 2 ? b.max.y : b.min.y,
                i & 4 ? b.max.z : b.min.z).sub(world.centre);
            var z = c.dot(fwd);
            dist = Math.max(dist, Math.abs(c.dot(right)) / tanH - z,
                Math.abs(c.dot(upv)) / tanV - z);
        }
        return Math.max(1.1 * dist, 1e-3);
    }

    /* The pair's common extent and the arrows' scales: the typical
       contact force (mean over a sample) drawn 2.5 body sizes long (out
       of the body: a size is a radius or a half extent). */
    function measureWorld(tracks) {
        var m = {dynamic: new THREE.Box3(), fixed: new THREE.Box3(), sizes: [],
            fall: new THREE.Vector3(), falls: 0};
        tracks.forEach(function (t) {
            if (t) {
                measure(t, m);
            }
        });
        m.sizes.sort(function (a, b) {
            return a - b;
        });
        var size = m.sizes.length ? m.sizes[m.sizes.length >> 1] : 0;
        var box = (m.dynamic.isEmpty() ? m.fixed : m.dynamic).clone();
        if (box.isEmpty()) {
            box.set(new THREE.Vector3(-1, -1, -1), new THREE.Vector3(1, 1, 1));
        }
        box.expandByScalar(Math.max(size, 1e-3));
        var sphere = box.getBoundingSphere(new THREE.Sphere());
        var w = {box: box, centre: sphere.center, radius: sphere.radius,
            size: size || sphere.radius / 20,
            fall: m.falls > 0 ? m.fall.divideScalar(m.falls) : null};
        var fsum = 0, fn = 0, tsum = 0, tn = 0;
        tracks.forEach(function (t) {
            if (!t) {
                return;
            }
            var frames = t.rec.frames;
            var stride = Math.max(1, Math.floor(frames.length / 50));
            for (var f = 0; f < frames.length; f += stride) {
                var ct = frames[f].contacts;
                for (var k = 0; ct !== null && k < ct.n; ++k) {
                    var v = ct.v, o = 10 * k;
                    if (v[o + 6] > 0) {
                        fsum += v[o + 6];
                        ++fn;
                    }
                    var tq = Math.sqrt(v[o + 7] * v[o + 7] + v[o + 8] *
                        v[o + 8] + v[o + 9] * v[o + 9]);
                    if (tq > 0) {
                        tsum += tq;
                        ++tn;
                    }
                }
            }
        });
        var len = 2.5 * w.size;
        w.forceScale = fn > 0 ? len / (fsum / fn) : 0;
        w.torqueScale = tn > 0 ? len / (tsum / tn) : 0;
        w.arrowMax = 4 * len;
        w.hasForces = fn > 0;
        w.hasTorques = tn > 0;
        return w;
    }

    function sliderToTime(v) {
        return clock.t0 + (clock.t1 - clock.t0) * v / SLIDER_STEPS;
    }

    /* Shows time t in both views (each clamped to its own run). */
    function seek(t) {
        var started = performance.now();
        clock.t = Math.max(clock.t0, Math.min(clock.t1, t));
        var slider = $('slider');
        slider.value = clock.t1 > clock.t0 ?
            Math.round((clock.t - clock.t0) / (clock.t1 - clock.t0) *
                SLIDER_STEPS) : 0;
        $('time').textContent = 't = ' + fmtTime(clock.t) + ' / ' +
            fmtTime(clock.t1);
        views.forEach(function (v) {
            if (v.track === null) {
                return;
            }
            var f = v.track.evaluate(clock.t);
            v.update(f, show);
            var rec = v.track.rec, fr = rec.frames[f];
            v.info.textContent = 'frame ' + (f + 1) + ' / ' + rec.frames.length +
                ' (t = ' + fmtTime(fr ? fr.time : 0) + '), ' + (fr ? fr.n : 0) +
                ' bodies' + (rec.hasContacts ? ', ' + (fr && fr.contacts ?
                    fr.contacts.n : 0) + ' contacts' : '');
        });
        plots.forEach(function (p) {
            if (p.plot !== null) {
                p.plot.setTime(clock.t);
            }
        });
        var updated = performance.now();
        renderNow();
        timing.update = updated - started;
        timing.render = performance.now() - updated;
    }

    function renderNow() {
        if (camera === null) {
            return;
        }
        var dist = camera.position.distanceTo(target);
        camera.near = Math.max(dist * 1e-3, 1e-5);
        camera.far = dist * 10 + (world ? 4 * world.radius : 100);
        camera.updateProjectionMatrix();
        views.forEach(function (v) {
            if (v.scene !== null) {
                v.render(camera, target);
            }
        });
    }

    function requestRender() {
        if (!renderQueued) {
            renderQueued = true;
            requestAnimationFrame(function () {
                renderQueued = false;
                renderNow();
            });
        }
    }

    function setPlaying(on) {
        clock.playing = on && clock.t1 > clock.t0;
        $('play').textContent = clock.playing ? 'Pause' : 'Play';
        if (clock.playing) {
            if (clock.t >= clock.t1) {
                seek(clock.t0);
            }
            clock.last = performance.now();
            requestAnimationFrame(tick);
        }
    }

    function tick(now) {
        if (!clock.playing) {
            return;
        }
        var dt = Math.min(0.1, Math.max(0, (now - clock.last) / 1000));
        clock.last = now;
        var t = clock.t + dt * parseFloat($('speed').value);
        if (t >= clock.t1) {
            if ($('loop').checked) {
                t = clock.t0;
            } else {
                t = clock.t1;
                setPlaying(false);
            }
        }
        seek(t);
        if (clock.playing) {
            requestAnimationFrame(tick);
        }
    }

    /* Steps one recorded frame (of the left view, else the right). */
    function stepFrame(dir) {
        var v = views[0].track !== null ? views[0] : views[1];
        if (v.track === null) {
            return;
        }
        var frames = v.track.rec.frames;
        var f = v.track.frameAt(clock.t);
        if (dir < 0 && frames[f] && frames[f].time < clock.t - 1e-12) {
            dir = 0; /* between two frames: back to the earlier one */
        }
        f = Math.max(0, Math.min(frames.length - 1, f + dir));
        setPlaying(false);
        if (frames[f]) {
            seek(frames[f].time);
        }
    }

    function resize() {
        var pane = views[0].pane;
        var w = Math.max(1, pane.clientWidth), h = Math.max(1, pane.clientHeight);
        views.forEach(function (v) {
            v.resize(w, h);
        });
        camera.aspect = w / h;
        camera.updateProjectionMatrix();
        renderNow();
        drawPlots();
    }

    function whenReady(fn) {
        if (ready) {
            fn();
        } else {
            readyWaiters.push(fn);
        }
    }

    function setReady() {
        ready = true;
        var w = readyWaiters;
        readyWaiters = [];
        w.forEach(function (fn) {
            try {
                fn();
            } catch (e) {
                console.error('rfview: ' + (e && e.stack ? e.stack : e));
            }
        });
    }

    /* Shows pair i of data.scenes: loads its recordings, reads them,
       builds both views and puts the camera on them. */
    function showScene(i) {
        var entry = data.scenes[i];
        setPlaying(false);
        ready = false;
        current = i;
        $('scene').value = String(i);
        $('description').textContent = entry.description || '';
        views.forEach(function (v, side) {
            v.clear(entry.recs[side] ? 'loading ' + entry.recs[side] + '...' :
                (entry.notes && entry.notes[side]) || 'no recording');
        });
        showPlots(entry);
        setStatus('loading ' + entry.name + '...', false);
        var loadStart = performance.now();
        var tracks = [null, null], left = 2;
        entry.recs.forEach(function (name, side) {
            if (!name) {
                done();
                return;
            }
            loadRecording(name, function (err) {
                if (current !== i) {
                    return; /* another scene was chosen meanwhile */
                }
                if (err !== null) {
                    views[side].message.textContent = err;
                    console.error('rfview: ' + err);
                } else {
                    try {
                        var rec = readRecording(base64ToBytes(RF_RECORDINGS[name]));
                        tracks[side] = new Track(rec);
                    } catch (e) {
                        views[side].message.textContent = name + ': ' + e.message;
                        console.error('rfview: ' + name + ': ' + e.message);
                    }
                    delete RF_RECORDINGS[name]; /* the text is no longer needed */
                }
                done();
            });
        });
        function done() {
            if (--left > 0) {
                return;
            }
            world = show.world = measureWorld(tracks);
            clock.t0 = Infinity;
            clock.t1 = -Infinity;
            tracks.forEach(function (t, side) {
                var v = views[side];
                if (t === null) {
                    return;
                }
                v.build(t, world);
                if (t.rec.frames.length === 0) {
                    v.message.textContent = 'no frames in ' + entry.recs[side];
                }
                clock.t0 = Math.min(clock.t0, t.t0);
                clock.t1 = Math.max(clock.t1, t.t1);
            });
            if (!(clock.t1 >= clock.t0)) {
                clock.t0 = clock.t1 = 0;
            }
            $('forces').disabled = !world.hasForces;
            $('torques').disabled = !world.hasTorques;
            makeControls(upVector(tracks));
            drawPlots();
            seek(clock.t0); /* the static bodies in place for resetCamera */
            resetCamera();
            var notes = [];
            tracks.forEach(function (t, side) {
                if (t !== null && t.rec.notes.length) {
                    notes.push(labels[side] + ': ' + t.rec.notes.join('; '));
                }
            });
            setStatus(notes.join(' | '), false);
            timing.load = performance.now() - loadStart;
            setReady();
        }
    }

    /* The scene's plots: those of time drawn here (Plot, from view-data.js,
       with a cursor at the views' time; drawn once the runs' time is
       known), the others as the report's PNG files beside the page. */
    function showPlots(entry) {
        var box = $('plots');
        box.textContent = '';
        plots = [];
        (entry.plots || []).forEach(function (p) {
            var fig = document.createElement('figure');
            var cap = document.createElement('figcaption');
            var item = {title: p.title || p.png, png: p.png, plot: null};
            if (p.live) {
                var frame = document.createElement('div');
                frame.className = 'plotbox';
                frame.appendChild(document.createElement('canvas'));
                var cursor = document.createElement('div');
                cursor.className = 'cursor';
                frame.appendChild(cursor);
                fig.appendChild(frame);
                item.plot = new Plot(p.live, frame);
                cap.textContent = 'cursor: the time shown above';
                if (p.png) {
                    var link = document.createElement('a');
                    link.href = p.png;
                    link.textContent = 'the report\'s PNG';
                    cap.appendChild(document.createTextNode(' | '));
                    cap.appendChild(link);
                }
            } else if (p.png) {
                var a = document.createElement('a');
                a.href = p.png;
                var img = document.createElement('img');
                img.src = p.png;
                img.alt = p.title || p.png;
                a.appendChild(img);
                fig.appendChild(a);
                cap.textContent = p.title || p.png;
            } else {
                return;
            }
            fig.appendChild(cap);
            box.appendChild(fig);
            plots.push(item);
        });
    }

    /* Draws the plots of time at their size, the cursor at the time. */
    function drawPlots() {
        plots.forEach(function (p) {
            if (p.plot !== null) {
                p.plot.draw(clock.t0, clock.t1);
                p.plot.setTime(clock.t);
            }
        });
    }

    function setupControls() {
        var sel = $('scene');
        data.scenes.forEach(function (s, i) {
            var o = document.createElement('option');
            o.value = String(i);
            o.textContent = s.name;
            sel.appendChild(o);
        });
        sel.disabled = data.scenes.length < 2;
        sel.addEventListener('change', function () {
            location.hash = encodeURIComponent(data.scenes[+sel.value].name);
        });
        window.addEventListener('hashchange', function () {
            var i = sceneFromHash();
            if (i !== current) {
                showScene(i);
            }
        });
        /* buttons give the focus back, so that the space bar is the
           page's play/pause and not a second click on the button */
        function button(id, fn) {
            $(id).addEventListener('click', function () {
                fn();
                $(id).blur();
            });
        }
        button('play', function () {
            setPlaying(!clock.playing);
        });
        button('prev', function () {
            stepFrame(-1);
        });
        button('next', function () {
            stepFrame(1);
        });
        $('slider').max = String(SLIDER_STEPS);
        $('slider').addEventListener('input', function () {
            seek(sliderToTime(+$('slider').value));
        });
        $('forces').addEventListener('change', function () {
            show.forces = $('forces').checked;
            seek(clock.t);
        });
        $('torques').addEventListener('change', function () {
            show.torques = $('torques').checked;
            seek(clock.t);
        });
        $('up').addEventListener('change', function () {
            makeControls(upVector(views.map(function (v) {
                return v.track;
            })));
            resetCamera();
        });
        button('reset', resetCamera);
        button('top', topCamera);
        $('paths').addEventListener('change', function () {
            show.paths = $('paths').checked;
            views.forEach(function (v) {
                v.showPaths(show.paths);
            });
            renderNow();
        });
        /* the keys (on the slider too, instead of its own steps) */
        document.addEventListener('keydown', function (e) {
            if (e.target.tagName === 'SELECT' || e.altKey || e.ctrlKey ||
                e.metaKey) {
                return;
            }
            if (e.key === ' ') {
                setPlaying(!clock.playing);
            } else if (e.key === 'ArrowLeft') {
                stepFrame(-1);
            } else if (e.key === 'ArrowRight') {
                stepFrame(1);
            } else if (e.key === 'Home') {
                seek(clock.t0);
            } else if (e.key === 'End') {
                seek(clock.t1);
            } else {
                return;
            }
            e.preventDefault();
        });
        window.addEventListener('resize', resize);
        /* the name of the body under the mouse */
        views.forEach(function (v) {
            v.canvas.addEventListener('mousemove', function (e) {
                var r = v.canvas.getBoundingClientRect();
                v.hover(camera, e.clientX - r.left, e.clientY - r.top);
            });
            v.canvas.addEventListener('mouseleave', function () {
                v.tip.style.display = 'none';
            });
        });
    }

    function sceneFromHash() {
        var name = decodeURIComponent(location.hash.replace(/^#/, ''));
        for (var i = 0; i < data.scenes.length; ++i) {
            if (data.scenes[i].name === name) {
                return i;
            }
        }
        return 0;
    }

    function start() {
        if (typeof THREE === 'undefined' ||
            typeof THREE.OrbitControls !== 'function') {
            fail('three.js did not load: rfdemo copies it next to this page ' +
                'from Debian\'s libjs-three (apt-get install libjs-three, ' +
                'then run rfdemo again)');
            return;
        }
        if (!data || !data.scenes || data.scenes.length === 0) {
            fail('view-data.js lists no recordings');
            return;
        }
        document.title = data.title || document.title;
        $('title').textContent = data.title || 'A/B viewer';
        if (data.report) {
            $('report').href = data.report;
            $('report').hidden = false;
        }
        try {
            views = [0, 1].map(function (side) {
                var pane = $('pane' + side);
                var v = new View(side, pane);
                v.label.textContent = labels[side];
                return v;
            });
        } catch (e) {
            fail('cannot draw in 3D (WebGL): ' + e.message);
            return;
        }
        camera = new THREE.PerspectiveCamera(45, 1, 0.01, 1000);
        target = new THREE.Vector3();
        setupControls();
        resize();
        showScene(sceneFromHash());
    }

    /* ---- window.rfViewer: the page's state, for tests and the console ---- */

    /* Where a body of view `side` is drawn: the last declared body that
       match(body) accepts, preferring one in the world at the current
       frame (an id or a name may be declared again).  Its id, name,
       world position of its first part's origin, and pixel position in
       that view's canvas (CSS pixels from the top left); null: none. */
    function bodyWhere(side, match) {
        var v = views[side];
        if (!v || v.track === null) {
            return null;
        }
        var bodies = v.track.rec.bodies, f = v.track.frame, found = -1;
        for (var i = bodies.length - 1; i >= 0; --i) {
            if (match(bodies[i])) {
                if (found < 0 || v.track.visible(i, f)) {
                    found = i;
                }
                if (v.track.visible(i, f)) {
                    break;
                }
            }
        }
        if (found < 0) {
            return null;
        }
        var p = new THREE.Vector3();
        var obj = v.bodyObjects[found];
        if (obj !== null && obj !== undefined) {
            obj.updateMatrixWorld(true);
            p.setFromMatrixPosition(obj.children[0].matrixWorld);
        } else {
            for (var g = 0; g < v.instanced.length; ++g) {
                var k = v.instanced[g].body.indexOf(found);
                if (k >= 0) {
                    var a = v.instanced[g].mesh.instanceMatrix.array;
                    p.set(a[16 * k + 12], a[16 * k + 13], a[16 * k + 14]);
                    break;
                }
            }
        }
        camera.updateMatrixWorld();
        var ndc = p.clone().project(camera);
        var w = v.canvas.clientWidth, h = v.canvas.clientHeight;
        return {
            id: bodies[found].id,
            name: bodies[found].name,
            visible: v.track.visible(found, f),
            world: [p.x, p.y, p.z],
            screen: [(ndc.x + 1) / 2 * w, (1 - ndc.y) / 2 * h],
            inView: Math.abs(ndc.x) <= 1 && Math.abs(ndc.y) <= 1 &&
                Math.abs(ndc.z) <= 1
        };
    }

    /* bodyWhere of the body with recorded id `id`. */
    function bodyState(side, id) {
        return bodyWhere(side, function (b) {
            return b.id === id;
        });
    }

    /* bodyWhere of the body with recorded name `name`. */
    function bodyByName(side, name) {
        return bodyWhere(side, function (b) {
            return b.name === name;
        });
    }

    /* The shown plots: title, whether drawn here (live), and for those
       the canvas, number of curves and their labels, the data area and the
       x axis' range, and the cursor's x (the middle of its element, CSS
       pixels from the canvas's left, as laid out). */
    function plotStates() {
        return plots.map(function (p) {
            var out = {title: p.title, png: p.png || null,
                live: p.plot !== null};
            if (p.plot === null) {
                return out;
            }
            var pl = p.plot, cr = pl.canvas.getBoundingClientRect(),
                kr = pl.cursor.getBoundingClientRect();
            out.canvas = pl.canvas;
            out.curves = pl.spec.curves.length;
            out.labels = pl.spec.curves.map(function (c) {
                return c.label;
            });
            out.area = pl.area;
            out.range = [pl.x0, pl.x1];
            out.cursor = pl.cursor.style.display === 'block' ?
                kr.left + kr.width / 2 - cr.left : null;
            return out;
        });
    }

    /* What view `side` draws now: its size, the share of pixels that are
       not the background and the number of distinct colours. */
    function pixelStats(side) {
        var v = views[side];
        renderNow(); /* the drawing buffer is read in the same task */
        var gl = v.renderer.getContext();
        var w = gl.drawingBufferWidth, h = gl.drawingBufferHeight;
        var px = new Uint8Array(4 * w * h);
        gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, px);
        var bg = v.background, br = Math.round(bg.r * 255),
            bgG = Math.round(bg.g * 255), bb = Math.round(bg.b * 255);
        var other = 0, colours = new Set();
        for (var i = 0; i < px.length; i += 4) {
            if (Math.abs(px[i] - br) + Math.abs(px[i + 1] - bgG) +
                Math.abs(px[i + 2] - bb) > 6) {
                ++other;
            }
            colours.add((px[i] >> 3) << 10 | (px[i + 1] >> 3) << 5 |
                px[i + 2] >> 3);
        }
        return {width: w, height: h, nonBackground: other / (w * h),
            colours: colours.size};
    }

    window.rfViewer = {
        errors: errors,
        /* View side's drawn paths: each body's id, name, number of points
           and last point (world), and whether shown. */
        paths: function (side) {
            var v = views[side];
            if (!v || v.track === null) {
                return [];
            }
            return v.paths.map(function (p) {
                var a = p.line.geometry.getAttribute('position').array;
                var body = v.track.rec.bodies[p.body];
                return {id: body.id, name: body.name, points: p.n,
                    last: [a[a.length - 3], a[a.length - 2], a[a.length - 1]],
                    shown: p.line.visible};
            });
        },
        /* View side's boxes drawn with their edges. */
        edges: function (side) {
            return views[side] ? views[side].edges : 0;
        },
        /* The top view (the 'top' button); returns how nearly the camera
           looks along the up axis (1: exactly). */
        top: function () {
            topCamera();
            var d = camera.position.clone().sub(target).normalize();
            return d.dot(camera.up.clone().normalize());
        },
        whenReady: whenReady,
        isReady: function () {
            return ready;
        },
        scenes: function () {
            return data.scenes.map(function (s) {
                return s.name;
            });
        },
        scene: function () {
            return current >= 0 ? data.scenes[current].name : null;
        },
        /* Shows the scene named name (as the selector does); whenReady
           then waits for it.  false: no such scene. */
        select: function (name) {
            var i = data.scenes.map(function (s) {
                return s.name;
            }).indexOf(name);
            if (i < 0) {
                return false;
            }
            showScene(i);
            location.hash = encodeURIComponent(name);
            return true;
        },
        range: function () {
            return [clock.t0, clock.t1];
        },
        time: function () {
            return clock.t;
        },
        seek: seek,
        play: function () {
            setPlaying(true);
        },
        pause: function () {
            setPlaying(false);
        },
        frame: function (side) {
            return views[side] && views[side].track ? views[side].track.frame :
                -1;
        },
        body: bodyState,
        bodyByName: bodyByName,
        plots: plotStates,
        pixels: pixelStats,
        /* Puts the camera at position looking at target (world [x, y, z]
           each); the controls follow. */
        camera: function (position, lookAt) {
            camera.position.fromArray(position);
            target.fromArray(lookAt);
            camera.lookAt(target);
            controls.forEach(function (c) {
                c.update();
            });
            renderNow();
        },
        slider: function () {
            return $('slider');
        },
        timing: function () {
            return {update: timing.update, render: timing.render,
                load: timing.load};
        },
        readRecording: readRecording /* the reader, for tests */
    };

    try {
        start();
    } catch (e) {
        fail('the viewer failed to start: ' + (e && e.stack ? e.stack : e));
    }
}());
