window.qcErrors = [];
window.addEventListener('error', function (e) { window.qcErrors.push(String(e.message || e)); }, true);
window.addEventListener('load', function () {
  var imgs = document.images, broken = 0;
  for (var i = 0; i < imgs.length; i++)
    if (!imgs[i].complete || imgs[i].naturalWidth === 0) broken++;
  var s = document.getElementById('qc-load-status');
  s.setAttribute('data-images', String(imgs.length));
  s.setAttribute('data-broken', String(broken));
  s.setAttribute('data-errors', String(window.qcErrors.length));
  s.setAttribute('data-load-ms', String(Math.round(performance.now())));
  s.textContent = imgs.length + ' images, ' + broken + ' broken';
});
