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
 * against it: ?name=NAME&start=X,Y,Z&end0=X,Y,Z&end1=X,Y,Z (the body
 * recorded under NAME: its first recorded position, the same in both
 * runs, and its last one in run 0 and run 1), and plots=SCENE (the
 * scene whose plots of time are checked: drawn by the page, with a
 * cursor that follows the slider) or plots=none (the page shows no plot).
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

    /* Moves the mouse to (x, y), CSS pixels in view k's canvas, as a user
       would: what the view's tooltip then says (null: hidden). */
    function hover(k, x, y) {
        var pane = document.getElementById('pane' + k);
        var canvas = pane.querySelector('canvas'),
            tip = pane.querySelector('.tip');
        var r = canvas.getBoundingClientRect();
        canvas.dispatchEvent(new MouseEvent('mousemove', {clientX: r.left + x,
            clientY: r.top + y, bubbles: true}));
        return tip.style.display === 'block' ? tip.textContent : null;
    }

    /* Pixels of the canvas (its 2D drawing) within 60 of colour rgb. */
    function inked(canvas, rgb) {
        var px = canvas.getContext('2d').getImageData(0, 0, canvas.width,
            canvas.height).data, n = 0;
        for (var i = 0; i < px.length; i += 4) {
            if (Math.abs(px[i] - rgb[0]) + Math.abs(px[i + 1] - rgb[1]) +
                Math.abs(px[i + 2] - rgb[2]) < 60) {
                ++n;
            }
        }
        return n;
    }

    function run() {
        var V = window.rfViewer, name = param('name');
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
        var b0 = [V.bodyByName(0, name), V.bodyByName(1, name)];
        for (k = 0; k < 2; ++k) {
            var b = b0[k];
            check('view ' + k + ': body "' + name + '" at its recorded start ' +
                'at t = ' + r[0], b !== null && b.visible && b.inView &&
                dist(b.world, start) < tol, b === null ? 'no such body' :
                'id ' + b.id + ' at ' + fmt(b.world) + ' (expected ' +
                fmt(start) + '), screen ' + fmt(b.screen) +
                (b.inView ? '' : ', outside the view'));
        }
        if (b0[0] === null || b0[1] === null) {
            return;
        }
        check('no body of a name not recorded', V.bodyByName(0, name + 'x') ===
            null, 'bodyByName(0, "' + name + 'x")');
        /* the mouse over its place on screen names it; off every body
           (the sky, the top left corner) nothing */
        for (k = 0; k < 2; ++k) {
            var said = hover(k, b0[k].screen[0], b0[k].screen[1]);
            check('view ' + k + ': the mouse over "' + name + '" names it',
                said !== null && said.indexOf(name + ' (id ' + b0[k].id) === 0,
                'tooltip "' + said + '" at ' + fmt(b0[k].screen));
        }
        var sky = hover(0, 2, 2);
        check('the mouse off the bodies names none', sky === null,
            'tooltip "' + sky + '" at [2, 2]');
        /* closer, for the on-screen checks: looking down at the ball's
           path from a few metres (y up, as the ground's normal) */
        var c = [(start[0] + end[0][0] + end[1][0]) / 3, start[1],
            (start[2] + end[0][2] + end[1][2]) / 3];
        V.camera([c[0], c[1] + 6, c[2] + 6], c);
        b0 = [V.bodyByName(0, name), V.bodyByName(1, name)];

        var max = Number(V.slider().max);
        slide(max / 2);
        var mid = [V.bodyByName(0, name), V.bodyByName(1, name)];
        check('the slider sets the time', Math.abs(V.time() -
            (r[0] + r[1]) / 2) < 1e-9 * (1 + r[1]), 't = ' + V.time());
        for (k = 0; k < 2; ++k) {
            var moved = dist(mid[k].world, start);
            var px2 = Math.hypot(mid[k].screen[0] - b0[k].screen[0],
                mid[k].screen[1] - b0[k].screen[1]);
            check('view ' + k + ': the slider moves "' + name + '"',
                moved > 0.5 && px2 > 20, 'moved ' + moved.toFixed(3) + ' m, ' +
                px2.toFixed(1) + ' px');
        }

        slide(max);
        var last = [V.bodyByName(0, name), V.bodyByName(1, name)];
        check('the slider reaches the end', Math.abs(V.time() - r[1]) < 1e-9 *
            (1 + r[1]), 't = ' + V.time());
        for (k = 0; k < 2; ++k) {
            check('view ' + k + ': "' + name + '" at its recorded end',
                dist(last[k].world, end[k]) < tol && last[k].inView,
                fmt(last[k].world) + ' (expected ' + fmt(end[k]) + ')');
        }
        var apart = dist(last[0].world, last[1].world);
        var apartPx = Math.hypot(last[0].screen[0] - last[1].screen[0],
            last[0].screen[1] - last[1].screen[1]);
        check('the two runs end apart', apart > 0.5 && apartPx > 20,
            apart.toFixed(3) + ' m, ' + apartPx.toFixed(1) + ' px on screen');
        /* its path over the whole run, drawn, ending where it ends */
        for (k = 0; k < 2; ++k) {
            var path = V.paths(k).filter(function (p) {
                return p.name === name;
            })[0];
            check('view ' + k + ': the path of "' + name + '" drawn to its ' +
                'recorded end', path !== undefined && path.shown &&
                path.points > 10 && dist(path.last, end[k]) < tol,
                path === undefined ? 'no path (' + V.paths(k).length +
                ' paths)' : path.points + ' points, the last ' +
                fmt(path.last));
        }

        V.seek(r[0]); /* backwards again */
        var again = V.bodyByName(1, name);
        check('seeking back to the start', dist(again.world, start) < tol,
            fmt(again.world));

        V.play();
        V.pause();
        var shown = V.plots();
        if (param('plots') === 'none') {
            check('no plots', shown.length === 0, shown.length + ' plots');
        } else {
            /* this scene's plots are not of time: the report's PNGs */
            check('plots not of time stay pictures', shown.length > 0 &&
                shown.every(function (p) {
                    return !p.live && /\.png$/.test(p.png);
                }), shown.map(function (p) {
                    return p.png + (p.live ? ' (drawn)' : '');
                }).join(', '));
        }
    }

    /* The first plot of time of the scene shown: drawn by the page from
       both runs' series, the cursor at the left edge of its data area at
       t = 0 (the runs start there), where the time falls on the x axis
       at the slider's middle, at the right edge at the end. */
    function runPlots() {
        var V = window.rfViewer, r = V.range(), max = Number(V.slider().max);
        var live = V.plots().filter(function (p) {
            return p.live;
        });
        check('plots of time drawn by the page', live.length > 0, live.length +
            ' of ' + V.plots().length + ' plots of ' + V.scene());
        if (live.length === 0) {
            return;
        }
        var p = live[0], a = p.area;
        check('"' + p.title + '": both runs and the reference',
            p.curves === 3 && p.labels.join(',') === 'stock,cone,reference',
            p.labels.join(', '));
        var red = inked(p.canvas, [214, 39, 40]),
            blue = inked(p.canvas, [31, 119, 180]);
        check('both runs\' curves drawn', red > 100 && blue > 30, red +
            ' pixels of stock\'s colour, ' + blue + ' of cone\'s');
        check('the time axis spans the runs', Math.abs(p.range[0] - r[0]) <
            1e-9 && Math.abs(p.range[1] - r[1]) < 1e-6 * (1 + r[1]),
            'x from ' + p.range[0] + ' to ' + p.range[1] + ' s, runs ' + r[0] +
            ' to ' + r[1]);
        function cursor() { /* where the page has it now */
            return V.plots().filter(function (q) {
                return q.live;
            })[0].cursor;
        }
        slide(0);
        var c0 = cursor();
        check('t = ' + V.time() + ': the cursor at the data area\'s left edge',
            c0 !== null && Math.abs(c0 - a.left) <= 2, 'cursor at x = ' + c0 +
            ' px, the area from ' + a.left + ' to ' + a.right);
        slide(max / 2);
        var tm = V.time(), want = a.left + (tm - p.range[0]) /
            (p.range[1] - p.range[0]) * (a.right - a.left);
        var c1 = cursor();
        check('t = ' + tm.toFixed(3) + ': the cursor moved with the slider ' +
            'to that time', c1 !== null && Math.abs(c1 - want) <= 2 &&
            c1 - c0 > 20,
            'cursor at x = ' + c1 + ' px (expected ' + want.toFixed(1) + ')');
        slide(max);
        var c2 = cursor();
        check('at the end: the cursor at the right edge', c2 !== null &&
            Math.abs(c2 - a.right) <= 2, 'cursor at x = ' + c2 + ' px');
    }

    /* A scene of boxes (?mode=boxes&edges=N&name=NAME): every box drawn
       with its edges (N, the boxes the recording holds), NAME's path
       drawn, and the top view looking down the up axis with NAME in
       sight. */
    function runBoxes() {
        var V = window.rfViewer, want = Number(param('edges')),
            name = param('name');
        for (var k = 0; k < 2; ++k) {
            check('view ' + k + ': the boxes drawn with their edges',
                V.edges(k) === want, V.edges(k) + ' (the recording holds ' +
                want + ' boxes)');
            var path = V.paths(k).filter(function (p) {
                return p.name === name;
            })[0];
            check('view ' + k + ': the path of "' + name + '"',
                path !== undefined && path.shown && path.points > 10,
                path === undefined ? 'none' : path.points + ' points');
        }
        var up = V.top();
        var b = V.bodyByName(0, name);
        check('the top view looks down the up axis at the whole run',
            up > 0.999 && b !== null && b.inView, 'direction . up = ' +
            up.toFixed(6) + (b !== null && b.inView ? ', "' + name +
                '" in sight' : ', "' + name + '" out of sight'));
    }

    /* A launcher's page (?mode=app, rollfric ab on a program that names
       no body): at the last frame each view still draws the program's
       moving body (a recording does not end on an empty world), and its
       path. */
    function runApp() {
        var V = window.rfViewer;
        slide(Number(V.slider().max));
        for (var k = 0; k < 2; ++k) {
            var paths = V.paths(k), px = V.pixels(k);
            check('view ' + k + ': a path drawn', paths.length > 0 &&
                paths[0].shown && paths[0].points > 10, paths.length +
                ' paths' + (paths.length ? ', ' + paths[0].points +
                    ' points' : ''));
            var b = paths.length ? V.body(k, paths[0].id) : null;
            check('view ' + k + ': the moving body in the last frame',
                b !== null && b.visible && px.nonBackground > 0.05,
                b === null ? 'none' : 'id ' + b.id + ' at ' + fmt(b.world) +
                ', ' + (100 * px.nonBackground).toFixed(1) +
                '% not background');
        }
    }

    function finish() {
        var V = window.rfViewer;
        check('no console error', V.errors.length === 0,
            V.errors.length ? V.errors.join(' | ') : 'none');
        write(failed === 0 && lines.length > 0 ? 'PASS' : 'FAIL');
    }

    function attempt(fn) {
        try {
            fn();
        } catch (e) {
            check('the check ran', false, e && e.stack ? e.stack : String(e));
        }
    }

    function go() {
        if (param('mode') === 'boxes' || param('mode') === 'app') {
            attempt(param('mode') === 'app' ? runApp : runBoxes);
            finish();
            return;
        }
        attempt(run);
        var scene = param('plots');
        if (scene === null || scene === 'none') {
            finish();
        } else if (!window.rfViewer.select(scene)) {
            check('scene ' + scene + ' on the page', false, 'scenes: ' +
                window.rfViewer.scenes().join(', '));
            finish();
        } else {
            window.rfViewer.whenReady(function () {
                attempt(runPlots);
                finish();
            });
        }
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
