/* global document, localStorage, location, navigator, URLSearchParams, window, __FIRST_SCREEN__ -- runs in the page, from index.html */
// The first script of index.html (build/first-screen-preload.ts fills FILES in): it asks at once for the
// files the page's first screen will need after the entry has run (the screen's chunk, its style sheets,
// the interface language's strings), so they travel beside the entry's instead of after it. It decides
// as the app does: the stored language, else the browser's (src/lib/i18n.ts detectLanguage); signed out,
// a signed-in screen shows the sign-in form (src/app/require-auth.tsx); `/` goes to /stories.
(function () {
  var FILES = __FIRST_SCREEN__;
  var stored = null;
  var token = null;
  try {
    stored = localStorage.getItem('lang');
    token = localStorage.getItem('token');
  } catch {
    // Storage refused (private mode): the app works without it, and so does this.
  }
  var browser = (navigator.languages && navigator.languages[0]) || navigator.language || '';
  var lang = stored === 'en' || stored === 'zh-CN' ? stored : browser.toLowerCase().indexOf('zh') === 0 ? 'zh-CN' : 'en';
  var path = location.pathname === '/' ? FILES.home : location.pathname;
  if (!token && FILES.signedIn.indexOf(path) >= 0) path = FILES.signIn;
  // The sign-in screen rendered at build time in the language the server guessed (the `lang` cookie, else
  // the browser's): shown unless the app will show another language; then the page stays empty until it
  // renders. While it is shown, what the visitor does on it is kept for the app (src/app/carry-over.ts):
  // each field's text by its test id, the field in focus, the tab pressed, and a submit, held back.
  var kept = { values: {}, focus: null, tab: null, submit: false };
  var onPage = function (event) {
    var root = document.getElementById('root');
    return root && root.hasAttribute('data-prerendered') && root.contains(event.target) ? event.target : null;
  };
  var store = function (field) {
    var id = field && field.getAttribute('data-testid');
    if (id && 'value' in field) kept.values[id] = field.value;
  };
  var keep = function (event) {
    store(onPage(event));
  };
  var prepare = function () {
    var root = document.getElementById('root');
    var shown = root && root.getAttribute('data-prerendered');
    if (!shown) return;
    if (shown !== lang) {
      root.textContent = '';
      return;
    }
    window.__TL_CARRY_OVER__ = kept;
    // This script is async: the page may have been shown, and typed into, before it ran. What is in its
    // fields and which has the focus now count as if they had been seen.
    var typed = root.querySelectorAll('input[data-testid], textarea[data-testid]');
    for (var k = 0; k < typed.length; k++) if (typed[k].value !== typed[k].defaultValue) store(typed[k]);
    if (root.contains(document.activeElement) && document.activeElement.hasAttribute('data-testid')) kept.focus = document.activeElement.getAttribute('data-testid');
    // An invitation link's code (/login?invite_code=…) is in the page's invite fields at once, as the app
    // puts it there (src/app/routes/login.tsx); what the visitor types over it is kept as any text is.
    var code = null;
    try {
      code = new URLSearchParams(location.search).get('invite_code');
    } catch {
      // No URLSearchParams: the app fills the field in when it renders.
    }
    var invites = code ? root.querySelectorAll('input[data-testid$="invite-input"]') : [];
    for (var j = 0; j < invites.length; j++) if (!invites[j].value) invites[j].value = code;
    document.addEventListener('input', keep, true);
    document.addEventListener('change', keep, true);
    document.addEventListener('focusin', function (event) {
      var field = onPage(event);
      if (field) kept.focus = field.getAttribute('data-testid');
    }, true);
    document.addEventListener('click', function (event) {
      var field = onPage(event);
      var tab = field && field.closest('[role="tab"]');
      if (tab) kept.tab = tab.getAttribute('data-testid');
    }, true);
    document.addEventListener('submit', function (event) {
      if (!onPage(event)) return;
      event.preventDefault();
      kept.submit = true;
    }, true);
  };
  if (document.getElementById('root')) prepare();
  else document.addEventListener('readystatechange', prepare, { once: true });
  var screen = FILES.screens[path];
  var strings = FILES.languages[lang] || [];
  var files = strings.concat(screen ? screen.all.concat(screen[lang] || []) : []);
  // A signed-in screen's own files at low priority: the entry's come first and run while these travel.
  var later = FILES.signedIn.indexOf(path) >= 0;
  for (var i = 0; i < files.length; i++) {
    var link = document.createElement('link');
    var css = /\.css$/.test(files[i]);
    link.rel = css ? 'preload' : 'modulepreload';
    if (css) link.as = 'style';
    if (later && i >= strings.length) link.fetchPriority = 'low';
    link.crossOrigin = '';
    link.href = files[i];
    document.head.appendChild(link);
  }
})();
