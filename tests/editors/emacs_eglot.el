;;; emacs_eglot.el --- drive holodeck-lsp from Emacs through eglot, in batch  -*- lexical-binding: t; -*-

;; Loads editors/emacs/holodeck-lsp.el as a user would, opens a GitHub workflow and an
;; agent of the same project (one server for both), waits for the agent's diagnostics
;; to reach flymake, asks for hover, applies the preferred quick fix, and writes what
;; the editor ended up with as JSON.  Environment: HL_SETUP (the .el), HL_CMD (JSON
;; list: the server's command), HL_AGENT, HL_WORKFLOW, HL_OUT.

(require 'json)
(require 'cl-lib)
(unless (fboundp 'yaml-mode)            ; Debian's emacs-nox has no YAML mode built in
  (define-derived-mode yaml-mode prog-mode "YAML"))
(load (getenv "HL_SETUP") nil t)

(defvar hl-result nil)
(defvar hl-published nil "URIs the server published diagnostics for.")

(advice-add 'eglot-handle-notification :before
            (lambda (_server method &rest params)
              (when (eq method 'textDocument/publishDiagnostics)
                (push (plist-get params :uri) hl-published))))

(defun hl-put (key value) (setq hl-result (plist-put hl-result key value)))

(defun hl-wait (what predicate)
  "Run the event loop until PREDICATE holds (60 s at most: then fail with WHAT)."
  (let ((deadline (+ (float-time) 60)))
    (while (not (funcall predicate))
      (when (> (float-time) deadline) (error "Timed out waiting for %s" what))
      (accept-process-output nil 0.05))))

(defun hl-diagnostics ()
  "The buffer's flymake diagnostics, as a JSON array of objects."
  (vconcat
   (mapcar (lambda (d)
             `((line . ,(line-number-at-pos (flymake-diagnostic-beg d)))
               (type . ,(symbol-name (flymake-diagnostic-type d)))
               (text . ,(flymake-diagnostic-text d))))
           (flymake-diagnostics))))

(defun hl-open (file)
  (find-file file)
  (yaml-mode)
  (holodeck-lsp-maybe-start)
  (run-hooks 'post-command-hook)        ; eglot-ensure connects after the command, as here
  (hl-wait "eglot to connect" (lambda () (eglot-current-server)))
  (current-buffer))

(condition-case err
    (progn
      (setq holodeck-lsp-command (json-parse-string (getenv "HL_CMD") :array-type 'list))
      (let* ((workflow (hl-open (getenv "HL_WORKFLOW")))
             (agent (hl-open (getenv "HL_AGENT")))
             (server (with-current-buffer agent (eglot-current-server))))
        (hl-put :same-server (eq server (with-current-buffer workflow (eglot-current-server))))
        (hl-put :server-name (plist-get (eglot--server-info server) :name))
        (with-current-buffer agent
          (hl-wait "the agent's diagnostics" (lambda () (flymake-diagnostics)))
          (hl-put :agent (hl-diagnostics))
          ;; The server takes documents in order: the workflow was judged before the agent.
          (hl-put :workflow (with-current-buffer workflow (hl-diagnostics)))
          (hl-put :workflow-published
                  (if (member (eglot--path-to-uri (getenv "HL_WORKFLOW")) hl-published) t :json-false))
          ;; Hover on `provider:` (eglot's own request, as eldoc makes it).
          (goto-char (point-min))
          (search-forward "provider:")
          (backward-char 3)
          (let ((hover (jsonrpc-request server :textDocument/hover
                                        (eglot--TextDocumentPositionParams))))
            (hl-put :hover (plist-get (plist-get hover :contents) :value)))
          ;; The quick fixes of the diagnostic on `opnai`, and the preferred one applied.
          (goto-char (point-min))
          (search-forward "opnai")
          (let* ((actions (eglot-code-actions (match-beginning 0) (match-end 0) "quickfix"))
                 (preferred (cl-find-if (lambda (a) (plist-get a :isPreferred)) actions)))
            (hl-put :actions (vconcat (mapcar (lambda (a) (plist-get a :title)) actions)))
            (eglot--apply-workspace-edit (plist-get preferred :edit))
            ;; The user stops typing: eglot's idle timer sends the change (batch Emacs
            ;; is never idle, so it is fired here as the idle loop would).
            (when eglot--change-idle-timer (timer-event-handler eglot--change-idle-timer)))
          (hl-put :fixed-line (progn (goto-char (point-min)) (forward-line 2)
                                     (buffer-substring-no-properties
                                      (line-beginning-position) (line-end-position))))
          (hl-wait "the diagnostics of the fixed text"
                   (lambda () (= (length (flymake-diagnostics)) (1- (length (plist-get hl-result :agent))))))
          (hl-put :after-fix (hl-diagnostics))
          (eglot-shutdown server))))
  (error (hl-put :error (error-message-string err))))

(with-temp-file (getenv "HL_OUT")
  (insert (json-encode hl-result)))
(kill-emacs 0)
