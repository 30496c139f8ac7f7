//! Internalisation: from the checked, elaborated AST to the core IR.
