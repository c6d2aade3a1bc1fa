// Flow runs of the CRM's chat flow service.
package chat
