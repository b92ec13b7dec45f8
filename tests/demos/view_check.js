/*
 * The A/B viewer's browser check (tests/demos/rfdemo_viewer.sh): loaded
 * after viewer.js by a copy of view.html, it drives the page through
 * window.rfViewer and writes the outcome into the page, which headless
 * Chromium's --dump-dom prints:
 *   <pre id="rf-check">RF-VIEW-CHECK PASS (or FAIL)
 *   ok|FAIL <check>: <details>
 *   ...</pre>
 * The expected positions come from the URL's query, taken by the script
 * from rfrecord (the C reader), so that the page's own reader is checked
 * against it: ?id=ID&start=X,Y,Z&end0=X,Y,Z&end1=X,Y,Z (body ID's first
 * recorded position, the same in both runs, and its last one in run 0
 * and run 1).
 */
(function () {
    'use strict';
    var lines = [], failed = 0, written = false;

    function write(verdict) {
        if (written) {
            return;
        }
        written = true;
        var pre = document.createElement('pre');
        pre.id = 'rf-check';
        pre.textContent = 'RF-VIEW-CHECK ' + verdict + '\n' + lines.join('\n') +
            '\n';
        document.body.appendChild(pre);
    }

    function check(name, ok, details) {
        lines.push((ok ? 'ok ' : 'FAIL ') + name + ': ' + details);
        failed += ok ? 0 : 1;
    }

    function param(name) {
        var m = new RegExp('[?&]' + name + '=([^&]*)').exec(location.search);
        return m ? decodeURIComponent(m[1]) : null;
    }

    function vec(name) {
        var s = param(name);
        return s === null ? null : s.split(',').map(Number);
    }

    function dist(a, b) {
        return Math.sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) *
            (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
    }

    function fmt(v) {
        return '[' + v.map(function (x) {
            return x.toFixed(4);
        }).join(', ') + ']';
    }

    /* Moves the page's own time slider to value v (as a user would). */
    function slide(v) {
        var s = window.rfViewer.slider();
        s.value = String(v);
        s.dispatchEvent(new Event('input'));
    }

    function run() {
        var V = window.rfViewer, id = Number(param('id'));
        var start = vec('start'), end = [vec('end0'), vec('end1')];
        var r = V.range(), tol = 1e-3, k;
        check('time range', r[1] > r[0], 'from ' + r[0] + ' to ' + r[1] + ' s');

        slide(0);
        for (k = 0; k < 2; ++k) {
            var px = V.pixels(k);
            check('view ' + k + ' draws', px.nonBackground > 0.05 &&
                px.colours >= 8, px.width + 'x' + px.height + ', ' +
                (100 * px.nonBackground).toFixed(1) + '% not background, ' +
                px.colours + ' colours');
        }
        var b0 = [V.body(0, id), V.body(1, id)];
        for (k = 0; k < 2; ++k) {
            var b = b0[k];
            check('view ' + k + ': body ' + id + ' at its recorded start at t = ' +
                r[0], b !== null && b.visible && b.inView &&
                dist(b.world, start) < tol, b === null ? 'no such body' :
                fmt(b.world) + ' (expected ' + fmt(start) + '), screen ' +
                fmt(b.screen) + (b.inView ? '' : ', outside the view'));
        }
        if (b0[0] === null || b0[1] === null) {
            return;
        }
        /* closer, for the on-screen checks: looking down at the ball's
           path from a few metres (y up, as the ground's normal) */
        var c = [(start[0] + end[0][0] + end[1][0]) / 3, start[1],
            (start[2] + end[0][2] + end[1][2]) / 3];
        V.camera([c[0], c[1] + 6, c[2] + 6], c);
        b0 = [V.body(0, id), V.body(1, id)];

        var max = Number(V.slider().max);
        slide(max / 2);
        var mid = [V.body(0, id), V.body(1, id)];
        check('the slider sets the time', Math.abs(V.time() -
            (r[0] + r[1]) / 2) < 1e-9 * (1 + r[1]), 't = ' + V.time());
        for (k = 0; k < 2; ++k) {
            var moved = dist(mid[k].world, start);
            var px2 = Math.hypot(mid[k].screen[0] - b0[k].screen[0],
                mid[k].screen[1] - b0[k].screen[1]);
            check('view ' + k + ': the slider moves body ' + id, moved > 0.5 &&
                px2 > 20, 'moved ' + moved.toFixed(3) + ' m, ' + px2.toFixed(1) +
                ' px');
        }

        slide(max);
        var last = [V.body(0, id), V.body(1, id)];
        check('the slider reaches the end', Math.abs(V.time() - r[1]) < 1e-9 *
            (1 + r[1]), 't = ' + V.time());
        for (k = 0; k < 2; ++k) {
            check('view ' + k + ': body ' + id + ' at its recorded end',
                dist(last[k].world, end[k]) < tol && last[k].inView,
                fmt(last[k].world) + ' (expected ' + fmt(end[k]) + ')');
        }
        var apart = dist(last[0].world, last[1].world);
        var apartPx = Math.hypot(last[0].screen[0] - last[1].screen[0],
            last[0].screen[1] - last[1].screen[1]);
        check('the two runs end apart', apart > 0.5 && apartPx > 20,
            apart.toFixed(3) + ' m, ' + apartPx.toFixed(1) + ' px on screen');

        V.seek(r[0]); /* backwards again */
        var again = V.body(1, id);
        check('seeking back to the start', dist(again.world, start) < tol,
            fmt(again.world));

        V.play();
        V.pause();
        check('no console error', V.errors.length === 0,
            V.errors.length ? V.errors.join(' | ') : 'none');
    }

    function go() {
        try {
            run();
        } catch (e) {
            check('the check ran', false, e && e.stack ? e.stack : String(e));
        }
        write(failed === 0 && lines.length > 0 ? 'PASS' : 'FAIL');
    }

    if (!window.rfViewer) {
        check('the viewer started', false, 'no window.rfViewer; errors: ' +
            (window.RF_VIEW_ERRORS || []).join(' | '));
        write('FAIL');
        return;
    }
    window.rfViewer.whenReady(go);
    /* not ready in time: say what the page reported */
    setTimeout(function () {
        if (!written) {
            check('the viewer got ready', false, 'not after 20 s; errors: ' +
                window.rfViewer.errors.join(' | '));
            write('FAIL');
        }
    }, 20000);
}());
