;;; holodeck-lsp.el --- holodeck-lsp for HoloDeck YAML through eglot  -*- lexical-binding: t; -*-

;; Eglot is built into Emacs 29 (Debian's Emacs 28: the elpa-eglot package).
;; Load this file from your init file, or copy the forms you want.
;;
;; Eglot runs one server per buffer: in a YAML buffer of a HoloDeck project it is
;; holodeck-lsp (diagnostics through flymake, hover through eldoc, completion, code
;; actions with `eglot-code-actions'); elsewhere whatever `eglot-server-programs' says
;; (yaml-language-server, by default).  No problem is shown twice.

;;; Code:

(require 'eglot)

(defvar holodeck-lsp-command '("holodeck-lsp" "serve")
  "How to start holodeck-lsp.")

(defvar holodeck-lsp-initialization-options '(:workspaceTrusted :json-false)
  "Sent as initializationOptions (the settings of docs/editors.md).
Set `:workspaceTrusted' to t only in folders whose code you trust.")

(defun holodeck-lsp--agent-file-p (file)
  "Whether FILE is named as a HoloDeck agent file."
  (string-match-p "\\(?:\\`\\|\\.\\)agent\\.ya?ml\\'" (file-name-nondirectory file)))

(defun holodeck-lsp-project-p (&optional file)
  "Whether FILE (by default the buffer's) is an agent file or lies below one.
That is: a folder holding FILE, or one above it, holds an agent file."
  (let ((file (or file buffer-file-name)))
    (and file
         (or (holodeck-lsp--agent-file-p file)
             (locate-dominating-file
              (file-name-directory file)
              (lambda (dir)
                (seq-some #'holodeck-lsp--agent-file-p
                          (directory-files dir nil "\\.ya?ml\\'" t))))))))

(defun holodeck-lsp--contact (_interactive)
  "The server of a YAML buffer: holodeck-lsp in a HoloDeck project."
  (if (holodeck-lsp-project-p)
      `(,@holodeck-lsp-command :initializationOptions ,holodeck-lsp-initialization-options)
    '("yaml-language-server" "--stdio")))

(dolist (mode '(yaml-mode yaml-ts-mode))
  (add-to-list 'eglot-server-programs `(,mode . holodeck-lsp--contact)))

(defun holodeck-lsp-maybe-start ()
  "Start eglot in a YAML buffer of a HoloDeck project (for `yaml-mode-hook')."
  (when (holodeck-lsp-project-p)
    (eglot-ensure)))

(provide 'holodeck-lsp)
;;; holodeck-lsp.el ends here
