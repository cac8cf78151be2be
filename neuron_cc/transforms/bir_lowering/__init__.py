"""The rules of convert-hlo-to-bir beyond one hlo op -> one node (`convert_hlo_to_bir` drives)."""
